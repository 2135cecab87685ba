"""The prompt the user really sends: the retrieved excerpts (overlap removed, as
``ragviz.retrieval.decision.excerpts`` gives them) put into an editable template with
``{context}`` and ``{question}``, the context cut to a token budget.

Tokens are counted with the model's own encoding where tiktoken knows it (OpenAI's models),
else tiktoken's ``cl100k_base``; when tiktoken or its encoding file is not available, words
and punctuation marks are counted instead, and :attr:`TokenCounter.name` says which.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ragviz.chunking.base import Chunk
from ragviz.errors import InputError
from ragviz.i18n import Grouped, catalog_text
from ragviz.retrieval.decision import Hit, excerpts

FIELDS = ("{context}", "{question}")
MAX_TEMPLATE_CHARS = 20_000
ESTIMATE = "words-and-punctuation"
_WORDS = re.compile(r"\w+|[^\w\s]")


def default_template(lang: str) -> str:
    """The article's template in ``lang`` (the preview's, ``build_prompt``'s)."""
    return catalog_text("prompt.template", lang)


def check_template(template: str, fields: tuple[str, ...] = FIELDS,
                   key: str = "llm.template_fields") -> str:
    """``template`` when it holds its ``fields`` (``{context}`` and ``{question}``) and is
    not too long; ``key`` says which are missing."""
    missing = [name for name in fields if name not in template]
    if missing:
        raise InputError(key=key, missing=", ".join(missing))
    if len(template) > MAX_TEMPLATE_CHARS:
        raise InputError(key="llm.template_long", n=len(template),
                         limit=Grouped(MAX_TEMPLATE_CHARS))
    return template


def fill(template: str, context: str, question: str) -> str:
    """The template with its two fields replaced (other braces are the user's text)."""
    marker = "\x00question\x00"
    return template.replace("{question}", marker).replace("{context}", context) \
        .replace(marker, question)


@dataclass(frozen=True)
class TokenCounter:
    """How tokens are counted: ``name`` says which counter (an encoding or the estimate)."""

    name: str
    encode: Callable[[str], list[Any]]
    decode: Callable[[list[Any]], str]

    def count(self, text: str) -> int:
        return len(self.encode(text))


def token_counter(model: str = "") -> TokenCounter:
    """The model's encoding where tiktoken knows it, else cl100k, else the estimate."""
    for name in (_encoding_for(model), "cl100k_base"):
        encoding = _encoding(name) if name else None
        if encoding is not None:
            return TokenCounter(name, encoding.encode, encoding.decode)
    return TokenCounter(ESTIMATE, lambda text: _WORDS.findall(text), " ".join)


def _encoding_for(model: str) -> str:
    try:
        import tiktoken
        return str(tiktoken.encoding_name_for_model(model)) if model else ""
    except (ImportError, KeyError):
        return ""


LOAD_WAIT_S = 5.0  # tiktoken downloads an encoding's file once, without a timeout of its own


@cache
def _encoding(name: str) -> Any:
    """tiktoken's encoding, or None (not installed, or its file not fetched within
    ``LOAD_WAIT_S``: a network that drops packets must not hang the command)."""
    found: list[Any] = []

    def load() -> None:
        try:
            import tiktoken
            found.append(tiktoken.get_encoding(name))
        except Exception:  # tiktoken fetches its file: any network failure
            return

    worker = threading.Thread(target=load, name="tiktoken-load", daemon=True)
    worker.start()
    worker.join(LOAD_WAIT_S)
    return found[0] if found else None


@dataclass(frozen=True)
class BuiltPrompt:
    """The prompt, its context's token count, and where the budget cut it (None: whole)."""

    text: str
    context_tokens: int
    counter: str
    budget: int | None
    cut_at: int | None  # characters of the context kept when the budget cut it

    def to_dict(self) -> dict[str, Any]:
        return {"context_tokens": self.context_tokens, "counter": self.counter,
                "budget": self.budget, "cut_at": self.cut_at}


def build_llm_prompt(question: str, chunks: Sequence[Chunk], hits: Sequence[Hit],
                     template: str, counter: TokenCounter,
                     budget: int | None = None) -> BuiltPrompt | None:
    """The prompt for one question (None when retrieval refused: nothing is asked), its
    context cut to ``budget`` tokens when it holds more."""
    if not hits:
        return None
    context = "\n\n".join(excerpts(chunks, hits))
    tokens = counter.encode(context)
    cut_at: int | None = None
    if budget is not None and len(tokens) > budget:
        kept = counter.decode(tokens[:budget])
        cut_at = _common_prefix(context, kept)
        context = context[:cut_at].rstrip()
        tokens = counter.encode(context)
    return BuiltPrompt(fill(template, context, question), len(tokens), counter.name, budget,
                       cut_at)


def _common_prefix(context: str, kept: str) -> int:
    """How many characters of ``context`` the decoded tokens kept (the estimate's decode
    joins words with spaces, so it is matched word by word)."""
    if context.startswith(kept):
        return len(kept)
    position = 0
    for word in _WORDS.findall(kept):
        found = context.find(word, position)
        if found < 0:
            break
        position = found + len(word)
    return position
