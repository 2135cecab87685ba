"""Chonkie's ``TokenChunker`` with the chosen model's own tokenizer: windows of
``chunk_size`` of the model's tokens, each repeating the last ``chunk_overlap`` of the
previous one, as a pipeline that chunks for that model would run it.

Chonkie returns each window decoded (an uncased model's tokenizer lowercases and drops
accents, WordPiece puts spaces around punctuation), and its offsets add up the decoded
lengths, so neither is a document slice. The windows are the library's (its call, its
token groups); each is located by the tokenizer's own offsets: from its first token's
first character to its last token's last character.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.params import TOKENS
from ragviz.chunking.peers.common import chunks_at, quiet_chonkie, register_window
from ragviz.chunking.text import Span
from ragviz.errors import InputError

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def model_tokenizer(embedder: Embedder | None) -> Any:
    """The model's Hugging Face tokenizer, the kind Chonkie takes; InputError otherwise."""
    tokenizer = getattr(embedder, "tokenizer", None)
    if tokenizer is None or not getattr(tokenizer, "is_fast", False):
        name = getattr(embedder, "name", "no model")
        raise InputError(key="peers.chonkie_needs_hf_tokenizer", model=name)
    return tokenizer


def token_windows(count: int, size: int, overlap: int) -> list[range]:
    """Chonkie's windows over ``count`` tokens, as its ``_token_group_generator`` makes them:
    one every ``size - overlap`` tokens, the last one ending at the last token."""
    windows: list[range] = []
    for first in range(0, count, size - overlap):
        windows.append(range(first, min(first + size, count)))
        if windows[-1].stop == count:
            break
    return windows


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from chonkie import TokenChunker

    quiet_chonkie()

    tokenizer = model_tokenizer(embedder)
    size, overlap = values["chunk_size"], values["chunk_overlap"]
    theirs = TokenChunker(tokenizer=tokenizer, chunk_size=size, chunk_overlap=overlap)
    counts = [chunk.token_count for chunk in theirs.chunk(document)]
    offsets = tokenizer(document, add_special_tokens=False, return_offsets_mapping=True,
                        truncation=False, verbose=False)["offset_mapping"]
    windows = token_windows(len(offsets), size, overlap) if counts else []
    if counts != [len(window) for window in windows]:
        raise ValueError("Chonkie's token windows differ from the tokenizer's own encoding")
    spans: list[Span] = [(int(offsets[w[0]][0]), int(offsets[w[-1]][1])) for w in windows]
    return ChunkingResult(chunks_at(document, spans))


SPEC = register_window("chonkie_token_model", _run, "chonkie", library="Chonkie",
                       call="TokenChunker(tokenizer=<the model's tokenizer>, …)", order=213,
                       size=128, overlap=0, unit=TOKENS, variant="tokenizer=model")
