"""A chat API's reply read against the small schema ragviz uses of it, never trusted: a body that
is not UTF-8 JSON, nests deeper than the parser goes, holds ``choices`` that are not a list or
content that is not text is :class:`NotAnApiError`; token counts that are not a plausible whole
number are unknown; the answer is cut at ``max_chars`` characters while it is read (the cut
said); a ``refusal`` the server sets reads as the model's refusal; known keys are blanked out
of the answer before anyone sees a piece of it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MAX_TOKENS_COUNTED = 10**12  # beyond it a count is not a count
BLANK = "***"
MIN_SECRET_CHARS = 8  # shorter "keys" (the client's "no-key") are not secrets worth a blank


class NotAnApiError(Exception):
    """The reply is not what an OpenAI chat API sends."""


@dataclass(frozen=True)
class Reply:
    """What the reply said: the answer (cut at ``cut_at`` characters when too long), the
    model's own refusal, the token counts when plausible and why it finished."""

    text: str
    refusal: str
    prompt_tokens: int | None
    completion_tokens: int | None
    finish: str
    cut_at: int | None = None


class Redactor:
    """Blanks ``secrets`` out of a text given piece by piece: the end of the text that could be
    the start of a secret is held back until the next piece says whether it is one."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = sorted({s for s in secrets if len(s) >= MIN_SECRET_CHARS}, key=len,
                              reverse=True)
        self._raw = ""
        self._sent = 0

    def clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, BLANK)
        return text

    def _held(self, text: str) -> int:
        """How many characters at the end of ``text`` begin some secret."""
        longest = max((len(s) for s in self.secrets), default=1) - 1
        for size in range(min(longest, len(text)), 0, -1):
            tail = text[-size:]
            if any(secret.startswith(tail) for secret in self.secrets):
                return size
        return 0

    def feed(self, piece: str) -> str:
        """The new text safe to show now."""
        self._raw += piece
        cleaned = self.clean(self._raw)
        safe = max(len(cleaned) - self._held(cleaned), self._sent)
        out, self._sent = cleaned[self._sent:safe], safe
        return out

    def rest(self) -> str:
        cleaned = self.clean(self._raw)
        out, self._sent = cleaned[self._sent:], len(cleaned)
        return out


def _json(data: bytes | str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise NotAnApiError from None


def _count(value: Any) -> int | None:
    plausible = isinstance(value, int) and not isinstance(value, bool) \
        and 0 <= value <= MAX_TOKENS_COUNTED
    return value if plausible else None


def _usage(usage: Any) -> tuple[int | None, int | None]:
    if not isinstance(usage, dict):
        return None, None
    return _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise NotAnApiError
    return value


def _first_choice(data: Any, part: str) -> dict[str, Any] | None:
    """The first choice's ``part`` (``message`` or ``delta``); None when there is none."""
    if not isinstance(data, dict):
        raise NotAnApiError
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise NotAnApiError
    if not choices:
        return None
    choice = choices[0]
    body = choice.get(part) if isinstance(choice, dict) else None
    if not isinstance(body, dict):
        raise NotAnApiError
    return {**body, "finish_reason": _text(choice.get("finish_reason"))}


def read_whole(body: bytes, max_chars: int, redactor: Redactor) -> Reply:
    """A non-streamed reply's answer."""
    data = _json(body)
    message = _first_choice(data, "message")
    usage = _usage(data.get("usage"))
    if message is None:
        return Reply("", "", *usage, finish="")
    text = redactor.clean(_text(message.get("content")))
    cut = len(text) > max_chars
    return Reply(text[:max_chars], redactor.clean(_text(message.get("refusal"))), *usage,
                 finish=message["finish_reason"], cut_at=max_chars if cut else None)


def read_stream(lines: Iterable[str], max_chars: int, redactor: Redactor,
                on_text: Callable[[str], None] | None) -> Reply:
    """A streamed reply's answer from its server-sent events, stopped at ``max_chars``."""
    pieces: list[str] = []
    refusal: list[str] = []
    usage: tuple[int | None, int | None] = (None, None)
    finish, events, size, cut_at = "", 0, 0, None
    for line in lines:
        if not line.startswith("data:"):
            continue
        payload = line[5:].strip()
        if payload == "[DONE]":
            break
        event = _json(payload)
        events += 1
        if isinstance(event, dict) and event.get("usage") is not None:
            usage = _usage(event["usage"])
        delta = _first_choice(event, "delta")
        if delta is None:
            continue
        raw = _text(delta.get("content"))
        if len(raw) > max_chars - size:
            raw, cut_at = raw[:max_chars - size], max_chars
        refusal.append(_text(delta.get("refusal")))
        size += len(raw)
        pieces.append(raw)
        shown = redactor.feed(raw)
        if shown and on_text is not None:
            on_text(shown)
        finish = delta["finish_reason"] or finish
        if cut_at is not None:
            finish = finish or "cut"
            break
    if not events:
        raise NotAnApiError
    rest = redactor.rest()
    if rest and on_text is not None:
        on_text(rest)
    return Reply(redactor.clean("".join(pieces)),
                 redactor.clean("".join(refusal)[:max_chars]), *usage,
                 finish=finish, cut_at=cut_at)


def known_secrets(key: str | None, variables: Sequence[str]) -> list[str]:
    """The key in use and the server's own keys: the texts no output may show."""
    return [k for k in (key, *(os.environ.get(v) for v in variables)) if k]
