"""Chunkers of other libraries (LangChain, Chonkie, semchunk, LlamaIndex), one module each,
registered when their library is installed (``pip install 'ragviz[peers]'``) and named as
missing otherwise. Their libraries are imported only when one of them chunks."""

from __future__ import annotations

from ragviz.chunking.peers import (  # noqa: F401
    chonkie_recursive,
    chonkie_sentence,
    chonkie_token,
    chonkie_token_model,
    langchain_character,
    langchain_markdown_header,
    langchain_recursive,
    llamaindex_sentence,
    semchunk_chunker,
)
