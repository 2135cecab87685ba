"""What an answer is worth, per question:

- ``correct``: the expected answer's text (normalised for case, accents and spaces) is in it;
- ``refused-by-llm``: the model says it does not know (``REFUSAL_PHRASES``, en and pt);
- ``not-asked``: the floor refused, so no call was made;
- ``hallucinated``: an unanswerable question answered;
- ``answered-from-wrong-chunk``: the answer's words come from a sent chunk that does not
  hold the expected answer (the article's case), that chunk named;
- ``incorrect``: any other answer to an answerable question;
- ``answered``: an unlabelled question (or one without an expected text) answered.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

CORRECT = "correct"
INCORRECT = "incorrect"
REFUSED_BY_LLM = "refused-by-llm"
NOT_ASKED = "not-asked"
HALLUCINATED = "hallucinated"
WRONG_CHUNK = "answered-from-wrong-chunk"
FAILED = "failed"  # the call failed (the sentence says why); no verdict on an answer
ANSWERED = "answered"  # an unlabelled question answered: nothing to judge it by
VERDICTS = (CORRECT, INCORRECT, REFUSED_BY_LLM, NOT_ASKED, HALLUCINATED, WRONG_CHUNK, FAILED,
            ANSWERED)

# Said by a model that does not know, normalised (no accents, lower case); edit to taste.
REFUSAL_PHRASES: tuple[str, ...] = (
    "i don't know", "i do not know", "i dont know", "not in the excerpts",
    "not in the provided", "cannot answer", "can't answer", "no information",
    "nao sei", "nao tenho essa informacao", "nao esta nos trechos", "nao consta",
    "nao encontrei", "nao e possivel responder", "nao ha informacao",
)
_WORD = re.compile(r"\w+")


def normalise(text: str) -> str:
    """Lower case, accents removed, runs of spaces made one."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def is_refusal(answer: str, phrases: Iterable[str] = REFUSAL_PHRASES) -> bool:
    said = normalise(answer)
    return any(normalise(phrase) in said for phrase in phrases if phrase.strip())


@dataclass(frozen=True)
class SentChunk:
    """A chunk the prompt carried, and whether it holds the expected answer."""

    index: int
    text: str
    holds_answer: bool


def source_chunk(answer: str, sent: Sequence[SentChunk]) -> SentChunk | None:
    """The sent chunk sharing the most of the answer's words (ties: the earlier hit), or
    None when no chunk shares at least half of them."""
    words = set(_WORD.findall(normalise(answer)))
    if not words:
        return None
    best: SentChunk | None = None
    best_shared = 0
    for chunk in sent:
        shared = len(words & set(_WORD.findall(normalise(chunk.text))))
        if shared > best_shared:
            best, best_shared = chunk, shared
    return best if best_shared * 2 >= len(words) else None


def judge(answer: str | None, answerable: bool | None, expected: str,
          sent: Sequence[SentChunk], phrases: Iterable[str] = REFUSAL_PHRASES
          ) -> tuple[str, int | None]:
    """The verdict and the chunk it names (``answered-from-wrong-chunk`` only);
    ``answer`` None means nothing was asked (the floor refused)."""
    if answer is None:
        return NOT_ASKED, None
    if is_refusal(answer, phrases):
        return REFUSED_BY_LLM, None
    if answerable is False:
        return HALLUCINATED, None
    if answerable is None or not expected.strip():
        return ANSWERED, None
    if normalise(expected) in normalise(answer):
        return CORRECT, None
    origin = source_chunk(answer, sent)
    if origin is not None and not origin.holds_answer:
        return WRONG_CHUNK, origin.index
    return INCORRECT, None
