"""A question-writing model's reply, read tolerantly.

The reply asked for is ``{"questions": [{"question": "…", "excerpts": ["…"]}]}``. Models
wrap it in a ```json fence, add a sentence before or after it, answer with the bare list or
name the field ``excerpt``: all of that is read. A reply with no JSON object in it is not
an error of the run: the caller counts it and goes on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ragviz.inputs.documents import MAX_ANSWER_CHARS, MAX_QUESTION_CHARS, MAX_REFERENCES

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
MAX_DRAFTS_PER_REPLY = 50


@dataclass(frozen=True)
class Draft:
    """One question as the model wrote it, with the excerpts it claims to have copied."""

    question: str
    excerpts: tuple[str, ...]


@dataclass(frozen=True)
class Reply:
    """The drafts read from a reply; ``json`` False when no JSON was found in it, and
    ``malformed`` the items that were not a question with text."""

    drafts: tuple[Draft, ...]
    json: bool
    malformed: int = 0


def _candidates(text: str) -> list[str]:
    """The texts that may hold the JSON: each fenced block, then the span from the first
    ``{`` or ``[`` to the last ``}`` or ``]``, then the whole reply."""
    out = [m.group(1) for m in _FENCE.finditer(text)]
    for opening, closing in (("{", "}"), ("[", "]")):
        start, end = text.find(opening), text.rfind(closing)
        if 0 <= start < end:
            out.append(text[start:end + 1])
    out.append(text)
    return out


def _items(text: str) -> list[Any] | None:
    """The list of questions the reply holds (None: no such JSON in it)."""
    for candidate in _candidates(text):
        try:
            raw = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(raw, dict):
            raw = raw.get("questions")
        if isinstance(raw, list):
            return raw
    return None


def _draft(item: Any) -> Draft | None:
    if not isinstance(item, dict):
        return None
    question = item.get("question")
    excerpts = item.get("excerpts", item.get("excerpt", []))
    if isinstance(excerpts, str):
        excerpts = [excerpts]
    if not isinstance(question, str) or not question.strip() \
            or len(question) > MAX_QUESTION_CHARS or not isinstance(excerpts, list):
        return None
    kept = tuple(e for e in excerpts if isinstance(e, str) and e.strip()
                 and len(e) <= MAX_ANSWER_CHARS)
    return Draft(" ".join(question.split()), kept[:MAX_REFERENCES])


def parse_reply(text: str) -> Reply:
    """The drafts in a reply (see the module)."""
    raw = _items(text)
    if raw is None:
        return Reply((), False)
    items = raw[:MAX_DRAFTS_PER_REPLY]
    drafts = [_draft(item) for item in items]
    kept = tuple(d for d in drafts if d is not None)
    return Reply(kept, True, len(items) - len(kept))
