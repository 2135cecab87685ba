"""One question's prompt sent to an OpenAI-compatible chat API (OpenAI, Azure OpenAI, Ollama,
vLLM, llama.cpp's server, LM Studio) with the official ``openai`` client, temperature 0.

The base URL follows the embedding API's rules (``ragviz.embedding.api_common``); the key comes from
an argument, else ``RAGVIZ_LLM_API_KEY``, else ``OPENAI_API_KEY`` when the base is one the
operator allowed for them (``api_common.server_key``); it lives only inside the client. A reply
is read under a deadline for the whole of it, its bytes and its answer's characters capped,
never following a redirect, and checked against the schema of ``reply``. Every fault becomes an
:class:`LLMError`: one sentence by catalog key, never the key.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ragviz.answering.reply import (
    NotAnApiError,
    Redactor,
    Reply,
    known_secrets,
    read_stream,
    read_whole,
)
from ragviz.embedding.api_common import (
    DEFAULT_API_BASE,
    KEY_HOSTS_ENV,
    NO_KEY,
    check_api_base,
    connection_reason,
    make_client,
    retryable,
    server_key,
    server_message,
    with_retries,
)
from ragviz.errors import LLMError

LLM_PREFIX = "openai:"
KEY_VARIABLES = ("RAGVIZ_LLM_API_KEY", "OPENAI_API_KEY")
TIMEOUT_S = 60.0  # a request's whole reply, retries included
RETRIES = 2  # after the first try: 429, 5xx and lost connections, as Retry-After says
MAX_REPLY_BYTES = 8_000_000  # a reply's bytes as read (streamed events included)
MAX_ANSWER_CHARS = 20_000  # an answer's characters; the rest is not read

OnText = Callable[[str], None]
ShouldStop = Callable[[], bool]


@dataclass(frozen=True)
class ChatAnswer:
    """What the model said, what it cost and how long it took; ``cut_at``: the answer was
    cut at that many characters; ``refused``: the server said the model refused."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float
    cut_at: int | None = None
    refused: bool = False

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
                 retries: int = RETRIES, stream: bool = True,
                 max_answer_chars: int = MAX_ANSWER_CHARS,
                 max_reply_bytes: int = MAX_REPLY_BYTES) -> None:
        own = [DEFAULT_API_BASE, os.environ.get("OPENAI_BASE_URL") or DEFAULT_API_BASE]
        base = check_api_base(api_base or own[1])
        key = api_key or server_key(KEY_VARIABLES, base, own)
        # the server holds a key this base may not have: a visitor's base needs their own
        self.key_withheld = key is None and any(os.environ.get(v) for v in KEY_VARIABLES)
        if key is None and base == DEFAULT_API_BASE:
            raise LLMError(key="llm.needs_key", base=base)
        self.model = model
        self.api_base = base
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        self.retries = retries
        self.stream = stream
        self.max_answer_chars = max_answer_chars
        self._secrets = known_secrets(key, (*KEY_VARIABLES, "RAGVIZ_RERANK_API_KEY"))
        self._client, self._watch = make_client(base, key or NO_KEY, timeout_s,
                                                max_reply_bytes)

    @property
    def name(self) -> str:
        """``openai:MODEL`` with its base when not OpenAI's (no key: safe to show)."""
        at = "" if self.api_base == DEFAULT_API_BASE else f" @ {self.api_base}"
        return f"{LLM_PREFIX}{self.model}{at}"

    def __repr__(self) -> str:
        return f"ChatModel({self.name!r})"

    def ask(self, prompt: str, on_text: OnText | None = None,
            should_stop: ShouldStop | None = None, seconds: float | None = None
            ) -> ChatAnswer:
        """The model's answer to ``prompt`` (streamed to ``on_text`` piece by piece when
        streaming), or LLMError saying in one sentence what went wrong. The reply has
        ``seconds`` (default the model's timeout) in all; ``should_stop`` ends it early."""
        import openai

        from ragviz.embedding.guarded_http import ReplyStoppedError

        started = time.monotonic()
        options: dict[str, Any] = {"model": self.model, "temperature": 0,
                                   "messages": [{"role": "user", "content": prompt}]}
        if self.max_tokens is not None:
            options["max_tokens"] = self.max_tokens
        if self.stream:
            options.update(stream=True, stream_options={"include_usage": True})
        self._watch.begin(min(seconds or self.timeout_s, self.timeout_s), should_stop)
        try:
            reply = with_retries(lambda: self._once(options, on_text), self.retries,
                                 self._watch)
        except openai.OpenAIError as error:
            raise self._explain(error) from None
        except ReplyStoppedError as stop:
            raise self._stopped(stop) from None
        except NotAnApiError:
            raise self._not_an_api() from None
        return self._answer(reply, started)

    def _answer(self, reply: Reply, started: float) -> ChatAnswer:
        latency = time.monotonic() - started
        if reply.refusal.strip() and not reply.text.strip():
            return ChatAnswer(reply.refusal.strip(), reply.prompt_tokens,
                              reply.completion_tokens, latency, refused=True)
        if reply.finish == "content_filter":
            raise LLMError(key="llm.content_filter", base=self.api_base)
        if not reply.text.strip():
            raise LLMError(key="llm.empty", base=self.api_base, model=self.model)
        if not reply.finish:  # the server stopped sending before it said the answer was done
            raise LLMError(key="llm.stream_cut", base=self.api_base)
        return ChatAnswer(reply.text.strip(), reply.prompt_tokens, reply.completion_tokens,
                          latency, cut_at=reply.cut_at)

    def _once(self, options: dict[str, Any], on_text: OnText | None) -> Reply:
        import httpx

        redactor = Redactor(self._secrets)
        create = self._client.chat.completions.with_streaming_response.create
        try:
            with create(**options) as raw:
                http: httpx.Response = raw.http_response
                kind = http.headers.get("content-type", "")
                if self.stream and "event-stream" in kind:
                    return read_stream(http.iter_lines(), self.max_answer_chars, redactor,
                                       on_text)
                if "json" not in kind and "text/plain" not in kind:
                    raise NotAnApiError
                return read_whole(http.read(), self.max_answer_chars, redactor)
        except httpx.HTTPError:
            # the server had answered 200 and the body broke on the way
            raise LLMError(key="llm.stream_cut", base=self.api_base) from None

    def _stopped(self, stop: Any) -> LLMError:
        if stop.why == "bytes":
            return LLMError(key="llm.too_big", base=self.api_base, mb=f"{stop.limit / 1e6:g}")
        if stop.why == "cancelled":
            return LLMError(key="llm.cancelled", base=self.api_base)
        return LLMError(key="llm.timeout", base=self.api_base, seconds=f"{round(stop.limit, 1):g}")

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
        if 300 <= status < 400:
            from ragviz.embedding.guarded_http import redirect_target

            return LLMError(key="llm.redirect", base=base, status=status,
                            target=redirect_target(error.response) or "?")
        said = server_message(error, self._client)
        body = getattr(error, "body", None)
        code = str(body.get("code") or "") if isinstance(body, dict) else ""
        if status in (401, 403):
            if self.key_withheld:
                return LLMError(key="llm.key_withheld", base=base, status=status,
                                env=KEY_HOSTS_ENV)
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
