"""A rerank API, in the two formats servers speak:

- Cohere/Jina (vLLM, Infinity, Jina, Cohere, llama.cpp's server): ``POST {base}/rerank`` with
  ``{model, query, documents, top_n}`` → ``{"results": [{"index", "relevance_score"}]}``;
- TEI (Text Embeddings Inference): ``POST {base}/rerank`` with ``{query, texts}`` →
  ``[{"index", "score"}]``.

``format=auto`` sends Cohere's body and reads whichever shape comes back, trying TEI's body
when the server refuses Cohere's (400/422). The key comes from ``RAGVIZ_RERANK_API_KEY`` and
is written nowhere; it goes only to ``RAGVIZ_RERANK_BASE``'s host or one the operator allowed
(``api_common.server_key``). The base URL follows the embedding API's rules; the reply is read
by the guarded client (no redirect, a deadline for the whole of it, its bytes capped) and
checked before use; each fault is one sentence.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from typing import Any

from ragviz.embedding.api_common import check_api_base, run_budget, server_key
from ragviz.errors import InputError, RerankAPIError
from ragviz.retrieval.scorers import ScoreScale, Vectors, option_error

KEY_ENV = "RAGVIZ_RERANK_API_KEY"
FORMATS = ("auto", "cohere", "tei")
TIMEOUT_S = 30.0
MAX_REPLY_BYTES = 4_000_000  # a few hundred scores take a few kilobytes
BASE_ENV = "RAGVIZ_RERANK_BASE"
SCALE = ScoreScale(low=-20.0, high=1.0, step=0.01, label="chart.rerank_score", bounded=False)


class ApiReranker:
    """One rerank API model at ``base``."""

    scale = SCALE

    def __init__(self, model: str, base: str, fmt: str = "auto",
                 timeout_s: float = TIMEOUT_S) -> None:
        self.model, self.base, self.format, self.timeout_s = model, base, fmt, timeout_s
        self.name = f"api:{model}"
        self.options = ",".join([f"base={base}", *([f"format={fmt}"] if fmt != "auto" else [])])
        self._client: Any = None
        self._watch: Any = None

    @classmethod
    def from_options(cls, model: str, settings: dict[str, str]) -> ApiReranker:
        settings = dict(settings)
        base = settings.pop("base", "") or os.environ.get(BASE_ENV, "")
        if not model or not base:
            raise InputError(key="rerank.api_needs_base")
        fmt = settings.pop("format", "auto")
        if fmt not in FORMATS:
            raise option_error("rerank", "format", fmt, ", ".join(FORMATS))
        if settings:
            key = next(iter(settings))
            raise option_error("rerank", key, settings[key], "depth, base, format")
        try:
            checked = check_api_base(base)
        except InputError:
            raise
        except Exception:
            raise InputError(key="rerank.api_needs_base") from None
        return cls(model, checked, fmt)

    def scores(self, question: str, question_vector: Vectors, texts: Sequence[str],
               embedder: Any) -> list[float]:
        from ragviz.embedding.guarded_http import ReplyStoppedError

        if not texts:
            return []
        tei = self.format == "tei"
        try:
            self._connect().begin(self.timeout_s, budget=run_budget())
            answer, status = self._post(self._body(question, texts, tei))
            if self.format == "auto" and status in (400, 422):
                tei = True
                answer, status = self._post(self._body(question, texts, tei))
        except ReplyStoppedError as stop:
            raise self._stopped(stop) from None
        if status >= 400:
            raise self._status_error(status)
        return parse_scores(answer, len(texts))

    def _connect(self) -> Any:
        """The guarded client (made once), and its watch."""
        from ragviz.embedding.api_common import CONNECT_TIMEOUT_S
        from ragviz.embedding.guarded_http import Watch, guarded_client

        if self._client is None:
            self._watch = Watch(MAX_REPLY_BYTES)
            self._client = guarded_client(self._watch, self.timeout_s,
                                          min(CONNECT_TIMEOUT_S, self.timeout_s))
        return self._watch

    def _body(self, question: str, texts: Sequence[str], tei: bool) -> dict[str, Any]:
        if tei:
            return {"query": question, "texts": list(texts), "raw_scores": False}
        return {"model": self.model, "query": question, "documents": list(texts),
                "top_n": len(texts)}

    def _post(self, body: dict[str, Any], retried: bool = False) -> tuple[Any, int]:
        import httpx

        from ragviz.embedding.api_common import retry_after
        from ragviz.embedding.guarded_http import redirect_target

        key = server_key((KEY_ENV,), self.base, [os.environ.get(BASE_ENV, "")])
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            response = self._client.post(f"{self.base}/rerank", json=body, headers=headers)
        except httpx.TimeoutException:
            raise RerankAPIError(key="rerank.timeout", base=self.base,
                                 seconds=f"{self.timeout_s:g}") from None
        except httpx.HTTPError:
            raise RerankAPIError(key="rerank.unreachable", base=self.base) from None
        if response.status_code == 429 and not retried:
            self._watch.wait(retry_after(response.headers, 1))
            return self._post(body, retried=True)
        if 300 <= response.status_code < 400:
            raise RerankAPIError(key="rerank.redirect", base=self.base,
                                 status=response.status_code,
                                 target=redirect_target(response) or "?")
        if response.status_code >= 400:
            return None, response.status_code
        try:
            return json.loads(response.content), response.status_code
        except (ValueError, RecursionError):
            raise RerankAPIError(key="rerank.not_json", base=self.base) from None

    def _stopped(self, stop: Any) -> RerankAPIError:
        if stop.why == "bytes":
            return RerankAPIError(key="rerank.too_big", base=self.base,
                                  mb=f"{stop.limit / 1e6:g}")
        if stop.why == "cancelled":
            return RerankAPIError(key="rerank.cancelled", base=self.base)
        if stop.why == "budget":
            return RerankAPIError(key="rerank.budget_spent", base=self.base,
                                  seconds=f"{stop.limit:g}")
        return RerankAPIError(key="rerank.timeout", base=self.base,
                              seconds=f"{round(stop.limit, 1):g}")

    def _status_error(self, status: int) -> RerankAPIError:
        if status in (401, 403):
            return RerankAPIError(key="rerank.unauthorized", base=self.base, env=KEY_ENV)
        if status == 429:
            return RerankAPIError(key="rerank.rate_limited", base=self.base)
        return RerankAPIError(key="rerank.status", base=self.base, status=status)


def parse_scores(answer: Any, count: int) -> list[float]:
    """One score per document from either format; RerankAPIError when the results are not
    exactly one finite score for each of the ``count`` documents."""
    if isinstance(answer, dict) and isinstance(answer.get("results"), list):
        rows, field = answer["results"], "relevance_score"
    elif isinstance(answer, list):
        rows, field = answer, "score"
    else:
        raise RerankAPIError(key="rerank.results_no_list")
    scores: dict[int, float] = {}
    for row in rows:
        index = row.get("index") if isinstance(row, dict) else None
        value = row.get(field, row.get("score")) if isinstance(row, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise RerankAPIError(key="rerank.results_index", last=count - 1)
        if not isinstance(value, int | float) or isinstance(value, bool) \
                or not math.isfinite(value):
            raise RerankAPIError(key="rerank.results_score")
        scores[index] = float(value)
    if len(scores) != count or len(rows) != count:
        raise RerankAPIError(key="rerank.results_count", rows=len(rows), count=count)
    return [scores[i] for i in range(count)]
