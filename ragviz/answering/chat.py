"""One question's prompt sent to an OpenAI-compatible chat API (OpenAI, Azure OpenAI, Ollama,
vLLM, llama.cpp's server, LM Studio) with the official ``openai`` client, temperature 0.

The base URL follows the embedding API's rules (``ragviz.embedding.api_common``); the key comes from
an argument, else ``RAGVIZ_LLM_API_KEY``, else ``OPENAI_API_KEY``, and lives only inside the
client. Every fault becomes an :class:`LLMError`: one sentence by catalog key, never the key.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ragviz.embedding.api_common import (
    DEFAULT_API_BASE,
    NO_KEY,
    check_api_base,
    connection_reason,
    make_client,
    retryable,
    server_message,
)
from ragviz.errors import LLMError

LLM_PREFIX = "openai:"
KEY_VARIABLES = ("RAGVIZ_LLM_API_KEY", "OPENAI_API_KEY")
TIMEOUT_S = 60.0
RETRIES = 2  # after the first try: 429 and 5xx wait as the server's Retry-After says

OnText = Callable[[str], None]


@dataclass(frozen=True)
class ChatAnswer:
    """What the model said, what it cost and how long it took."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float

    def tokens(self) -> dict[str, int | None]:
        return {"prompt": self.prompt_tokens, "completion": self.completion_tokens}


def parse_llm_name(name: str) -> str:
    """``openai:MODEL`` -> MODEL; LLMError when it is not that shape."""
    text = name.strip()
    model = text.removeprefix(LLM_PREFIX).strip()
    if not text.startswith(LLM_PREFIX) or not model:
        raise LLMError(key="llm.bad_name", got=repr(text[:80]))
    return model


class ChatModel:
    """A chat model at a base URL; :meth:`ask` sends one prompt and returns the answer."""

    def __init__(self, model: str, api_base: str | None = None, api_key: str | None = None,
                 *, max_tokens: int | None = None, timeout_s: float = TIMEOUT_S,
                 retries: int = RETRIES, stream: bool = True) -> None:
        base = check_api_base(api_base or os.environ.get("OPENAI_BASE_URL") or DEFAULT_API_BASE)
        key = api_key or next((os.environ[v] for v in KEY_VARIABLES if os.environ.get(v)), None)
        if key is None and base == DEFAULT_API_BASE:
            raise LLMError(key="llm.needs_key", base=base)
        self.model = model
        self.api_base = base
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        self.retries = retries
        self.stream = stream
        self._client = make_client(base, key or NO_KEY, timeout_s, retries)

    @property
    def name(self) -> str:
        """``openai:MODEL`` with its base when not OpenAI's (no key: safe to show)."""
        at = "" if self.api_base == DEFAULT_API_BASE else f" @ {self.api_base}"
        return f"{LLM_PREFIX}{self.model}{at}"

    def __repr__(self) -> str:
        return f"ChatModel({self.name!r})"

    def ask(self, prompt: str, on_text: OnText | None = None) -> ChatAnswer:
        """The model's answer to ``prompt`` (streamed to ``on_text`` piece by piece when
        streaming), or LLMError saying in one sentence what went wrong."""
        import openai

        started = time.monotonic()
        options: dict[str, Any] = {"model": self.model, "temperature": 0,
                                   "messages": [{"role": "user", "content": prompt}]}
        if self.max_tokens is not None:
            options["max_tokens"] = self.max_tokens
        try:
            if self.stream:
                text, usage, finish = self._streamed(options, on_text)
            else:
                text, usage, finish = self._whole(options)
        except openai.OpenAIError as error:
            raise self._explain(error) from None
        if finish == "content_filter":
            raise LLMError(key="llm.content_filter", base=self.api_base)
        if not text.strip():
            raise LLMError(key="llm.empty", base=self.api_base, model=self.model)
        prompt_tokens, completion_tokens = usage
        return ChatAnswer(text.strip(), prompt_tokens, completion_tokens,
                          time.monotonic() - started)

    def _whole(self, options: dict[str, Any]) -> tuple[str, tuple[int | None, int | None], str]:
        response = self._client.chat.completions.create(**options)
        try:
            choices = response.choices
            usage = _usage(getattr(response, "usage", None))
        except AttributeError:
            raise self._not_an_api() from None
        if not choices:
            raise LLMError(key="llm.empty", base=self.api_base, model=self.model)
        message = choices[0].message
        return str(getattr(message, "content", None) or ""), usage, \
            str(choices[0].finish_reason or "")

    def _streamed(self, options: dict[str, Any], on_text: OnText | None
                  ) -> tuple[str, tuple[int | None, int | None], str]:
        import httpx
        import openai

        pieces: list[str] = []
        usage: tuple[int | None, int | None] = (None, None)
        finish = ""
        events = 0
        stream = self._client.chat.completions.create(
            **options, stream=True, stream_options={"include_usage": True})
        try:
            for event in stream:
                events += 1
                if getattr(event, "usage", None) is not None:
                    usage = _usage(event.usage)
                for choice in getattr(event, "choices", None) or ():
                    piece = getattr(choice.delta, "content", None) or ""
                    if piece:
                        pieces.append(piece)
                        if on_text is not None:
                            on_text(piece)
                    finish = str(choice.finish_reason or finish)
        except (openai.APITimeoutError, httpx.TimeoutException):
            raise LLMError(key="llm.timeout", base=self.api_base,
                           seconds=f"{self.timeout_s:g}") from None
        except (openai.APIConnectionError, httpx.HTTPError):
            # the server had answered 200 and the body broke on the way
            raise LLMError(key="llm.stream_cut", base=self.api_base) from None
        if not events:
            raise self._not_an_api()
        if not finish:  # the server stopped sending before it said the answer was done
            raise LLMError(key="llm.stream_cut", base=self.api_base)
        return "".join(pieces), usage, finish

    def _not_an_api(self) -> LLMError:
        return LLMError(key="llm.not_an_api", base=self.api_base)

    def _explain(self, error: Exception) -> LLMError:
        """One sentence for what went wrong; the server's words only where they help."""
        import openai

        base = self.api_base
        if isinstance(error, openai.APITimeoutError):
            return LLMError(key="llm.timeout", base=base, seconds=f"{self.timeout_s:g}")
        if isinstance(error, openai.APIConnectionError):
            return LLMError(key="llm.unreachable", base=base, reason=connection_reason(error))
        if not isinstance(error, openai.APIStatusError):
            return self._not_an_api()
        status = error.status_code
        said = server_message(error, self._client)
        body = getattr(error, "body", None)
        code = str(body.get("code") or "") if isinstance(body, dict) else ""
        if status in (401, 403):
            return LLMError(key="llm.key_refused", base=base, status=status)
        if code == "content_filter" or "content_filter" in said or "content management" in said:
            return LLMError(key="llm.content_filter", base=base)
        if status in (400, 404) and "model" in said.lower() and (
                "not found" in said.lower() or "does not exist" in said.lower()):
            return LLMError(key="llm.no_model", base=base, model=self.model, status=status)
        if status in (404, 405):
            return LLMError(key="llm.no_api", base=base, status=status)
        if retryable(status):
            return LLMError(key="llm.kept_failing", base=base, status=status,
                            retries=self.retries)
        return LLMError(key="llm.rejected", base=base, status=status,
                        detail=f": {said}" if said else "")


def _usage(usage: Any) -> tuple[int | None, int | None]:
    if usage is None:
        return None, None
    prompt = getattr(usage, "prompt_tokens", None)
    completion = getattr(usage, "completion_tokens", None)
    return (int(prompt) if isinstance(prompt, int) else None,
            int(completion) if isinstance(completion, int) else None)
