"""Any OpenAI-compatible embeddings API (OpenAI, Azure OpenAI, Ollama, vLLM, TEI, Infinity...).

The model option is ``openai:<model>``, with the API base URL as a separate setting
(default ``OPENAI_BASE_URL`` or ``https://api.openai.com/v1``); ``openai:<model>@<base URL>``
names both in one string, which is also the embedder's ``name`` (and so the cache key) when
the base is not OpenAI's own. The API key comes from an argument or ``OPENAI_API_KEY``; it
lives only inside the ``openai`` client and never appears in the name, repr or any message.

The API has no local tokenizer: ``max_tokens`` is None (servers either reject or silently
cut long inputs) and token counts are an estimate (words and punctuation marks).
"""

from __future__ import annotations

import base64
import json
import os
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from ragviz.embedding.api_common import (
    DEFAULT_API_BASE,
    KEY_HOSTS_ENV,
    NO_KEY,
    connection_reason,
    make_client,
    retryable,
    run_budget,
    server_key,
    server_message,
    with_retries,
)
from ragviz.embedding.api_common import check_api_base as check_api_base  # re-exported
from ragviz.embedding.base import Embedder, EmbeddingCache, Kind, Span, Vectors
from ragviz.errors import EmbeddingAPIError, ModelLoadError

OPENAI_PREFIX = "openai:"
MAX_INPUTS_PER_REQUEST = 128
MAX_CHARS_PER_REQUEST = 200_000  # ~50,000 tokens; OpenAI allows 300,000 tokens per request
REQUEST_TIMEOUT_S = 60.0
RETRIES = 4  # after the first try; the client waits 0.5, 1, 2, 4 s (or as Retry-After says)
PROBE_RETRIES = 1  # the load's probe: a wrong URL or a stopped server is named at once
MAX_REPLY_BYTES = 64_000_000  # 128 vectors of 3,072 numbers as JSON take about 8 MB
KEY_VARIABLES = ("OPENAI_API_KEY",)
_TOKEN_ESTIMATE = re.compile(r"\w+|[^\w\s]")
_MODEL_MISSING = re.compile(r"model.*(not (be )?found|does not exist|unknown|not exist)|"
                            r"(unknown|invalid) model|model_not_found", re.IGNORECASE)


def parse_openai_name(name: str) -> tuple[str, str | None]:
    """``openai:<model>[@<base URL>]`` -> (model, base URL or None).

    Whatever follows the first ``@`` is the base URL and must pass :func:`check_api_base`:
    a base that is not ``http(s)://host…`` is refused, never replaced by the default API,
    so a key typed for a local server cannot travel to another host.
    """
    rest = name.strip().removeprefix(OPENAI_PREFIX).strip()
    model, at, base = rest.partition("@")
    if not at:
        return rest, None
    return model.strip(), check_api_base(base)


def openai_name(model: str, api_base: str | None) -> str:
    """The option string for ``model`` at ``api_base`` (the base left out when it is OpenAI's);
    ModelLoadError when the base is not an http(s) URL (see :func:`check_api_base`)."""
    base = check_api_base(api_base) if api_base and api_base.strip() else ""
    if not base or base == DEFAULT_API_BASE:
        return f"{OPENAI_PREFIX}{model}"
    return f"{OPENAI_PREFIX}{model}@{base}"


class OpenAIEmbedder(Embedder):
    """Embeddings from an OpenAI-compatible ``/embeddings`` endpoint, batched and retried."""

    max_tokens = None
    kinds_differ = False

    def __init__(
        self,
        model: str,
        api_base: str | None = None,
        api_key: str | None = None,
        cache: EmbeddingCache | None = None,
        *,
        timeout_s: float = REQUEST_TIMEOUT_S,
        retries: int = RETRIES,
    ) -> None:
        super().__init__(cache)
        if not model:
            raise ModelLoadError(key="api.no_model")
        own = [DEFAULT_API_BASE, os.environ.get("OPENAI_BASE_URL") or DEFAULT_API_BASE]
        base = check_api_base(api_base or own[1])
        key = api_key or server_key(KEY_VARIABLES, base, own)
        self.key_withheld = key is None and any(os.environ.get(v) for v in KEY_VARIABLES)
        if key is None and base == DEFAULT_API_BASE:
            raise ModelLoadError(key="api.needs_key")
        self.model = model
        self.api_base = base
        self.name = openai_name(model, base)
        # the disk store's key: where and which model, never the API key
        self.disk_identity = f"api {base} {model}"
        self.timeout_s = timeout_s
        self.retries = retries
        self._client, self._watch = make_client(base, key or NO_KEY, timeout_s,
                                                MAX_REPLY_BYTES)
        self._dimension = 0
        self._dimension = int(self._request(["dimension probe"],
                                            min(retries, PROBE_RETRIES)).shape[1])  # fails fast

    def __repr__(self) -> str:
        return f"OpenAIEmbedder({self.name!r})"

    @property
    def dimension(self) -> int:
        return self._dimension

    def token_spans(self, text: str) -> list[Span]:
        """An estimate: the API's tokenizer is not available here."""
        return [(m.start(), m.end()) for m in _TOKEN_ESTIMATE.finditer(text)]

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        rows = [self._request(batch) for batch in _batches(texts)]
        if not rows:
            return np.zeros((0, self._dimension), dtype=np.float32)
        return np.concatenate(rows).astype(np.float32, copy=False)

    def _request(self, batch: list[str], retries: int | None = None) -> Vectors:
        """One request, tried again after a 429, a 5xx or a lost connection (``retries``
        times, default the embedder's), its reply read under the deadline, the run's budget
        and the byte cap."""
        import openai

        from ragviz.embedding.guarded_http import ReplyStoppedError

        tries = self.retries if retries is None else retries
        try:
            self._watch.begin(self.timeout_s, budget=run_budget())
            body = with_retries(lambda: self._body(batch), tries, self._watch)
        except openai.OpenAIError as error:
            raise self._explain(error, tries) from None
        except ReplyStoppedError as stop:
            raise self._stopped(stop) from None
        return self._vectors(body, len(batch))

    def _body(self, batch: list[str]) -> Any:
        """The reply's JSON, parsed here: a body nested past the parser's depth, not UTF-8
        or not JSON is not an embeddings API."""
        import httpx

        create = self._client.embeddings.with_streaming_response.create
        try:
            with create(model=self.model, input=batch, encoding_format="float") as raw:
                data = raw.http_response.read()
        except httpx.HTTPError:
            raise self._api_error("api.cut") from None
        try:
            return json.loads(data)
        except (ValueError, RecursionError):
            raise self._api_error("api.not_an_api") from None

    def _vectors(self, body: Any, expected: int) -> Vectors:
        """The response's vectors in input order, or one sentence for what is wrong with
        them: nothing silently wrong reaches the scores."""
        try:
            items = sorted(body["data"], key=lambda item: item["index"])
            rows = [_embedding(item["embedding"]) for item in items]
        except (AttributeError, TypeError, ValueError, KeyError, IndexError, RecursionError):
            raise self._api_error("api.not_an_api") from None
        if len(rows) != expected:
            raise self._api_error("api.vectors_count", count=len(rows), texts=expected)
        lengths = sorted({len(row) for row in rows})
        if lengths[0] == 0 or len(lengths) > 1:
            raise self._api_error("api.vectors_lengths",
                                  lengths=", ".join(str(n) for n in lengths[:3]))
        if self._dimension and lengths[0] != self._dimension:
            raise self._api_error("api.vectors_dimension", got=lengths[0],
                                  first=self._dimension)
        try:
            matrix = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError, OverflowError):
            raise self._api_error("api.not_an_api") from None
        if not np.isfinite(matrix).all():
            raise self._api_error("api.vectors_nan")
        if not np.any(matrix, axis=1).all():
            raise self._api_error("api.vectors_zero")
        return matrix

    def _api_error(self, key: str, **values: Any) -> EmbeddingAPIError:
        return EmbeddingAPIError(key=key, base=self.api_base, model=self.model, **values)

    def _stopped(self, stop: Any) -> EmbeddingAPIError:
        if stop.why == "bytes":
            return self._api_error("api.too_big", mb=f"{stop.limit / 1e6:g}")
        if stop.why == "cancelled":
            return self._api_error("api.cancelled")
        if stop.why == "budget":
            return self._api_error("api.budget_spent", seconds=f"{stop.limit:g}")
        return self._api_error("api.timeout", seconds=f"{round(stop.limit, 1):g}")

    def _explain(self, error: Exception, retries: int) -> EmbeddingAPIError:
        """One sentence for what went wrong; the server's words only where they help."""
        import openai

        if isinstance(error, openai.APITimeoutError):
            return self._api_error("api.timeout", seconds=f"{self.timeout_s:g}")
        if isinstance(error, openai.APIConnectionError):
            return self._api_error("api.unreachable", reason=connection_reason(error))
        if not isinstance(error, openai.APIStatusError):
            return self._api_error("api.not_an_api")
        status = error.status_code
        said = self._server_message(error)
        if 300 <= status < 400:
            from ragviz.embedding.guarded_http import redirect_target

            return self._api_error("api.redirect", status=status,
                                   target=redirect_target(error.response) or "?")
        if status in (401, 403):
            return self._api_error("api.key_withheld" if self.key_withheld
                                   else "api.key_refused", status=status, env=KEY_HOSTS_ENV)
        if status in (400, 404) and _MODEL_MISSING.search(said):
            return self._api_error("api.no_such_model", status=status)
        if status in (404, 405):
            return self._api_error("api.no_api", status=status)
        if retryable(status):
            return self._api_error("api.kept_failing", status=status, n=retries)
        return self._api_error("api.rejected", status=status,
                               detail=f": {said}" if said else "")

    def _server_message(self, error: Any) -> str:
        """The error text the server sent, the key blanked out, cut to one line."""
        return server_message(error, self._client)


def _embedding(value: Any) -> list[float]:
    """A float list, or the base64 float32 bytes some servers send anyway."""
    if isinstance(value, str):
        return np.frombuffer(base64.b64decode(value), dtype="<f4").tolist()  # type: ignore[no-any-return]
    return list(value)


def _batches(texts: list[str]) -> Iterator[list[str]]:
    """At most MAX_INPUTS_PER_REQUEST inputs and MAX_CHARS_PER_REQUEST characters each."""
    batch: list[str] = []
    chars = 0
    for text in texts:
        if batch and (len(batch) == MAX_INPUTS_PER_REQUEST
                      or chars + len(text) > MAX_CHARS_PER_REQUEST):
            yield batch
            batch, chars = [], 0
        batch.append(text or " ")  # the API rejects empty strings
        chars += len(text)
    if batch:
        yield batch


def load_openai(name: str, cache: EmbeddingCache | None = None, api_key: str | None = None
                ) -> OpenAIEmbedder:
    """The embedder for the option ``openai:<model>[@<base URL>]``."""
    model, base = parse_openai_name(name)
    return OpenAIEmbedder(model, base, api_key, cache)
