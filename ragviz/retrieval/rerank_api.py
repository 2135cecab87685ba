"""A rerank API, in the two formats servers speak:

- Cohere/Jina (vLLM, Infinity, Jina, Cohere, llama.cpp's server): ``POST {base}/rerank`` with
  ``{model, query, documents, top_n}`` → ``{"results": [{"index", "relevance_score"}]}``;
- TEI (Text Embeddings Inference): ``POST {base}/rerank`` with ``{query, texts}`` →
  ``[{"index", "score"}]``.

``format=auto`` sends Cohere's body and reads whichever shape comes back, trying TEI's body
when the server refuses Cohere's (400/422). The key comes from ``RAGVIZ_RERANK_API_KEY`` and
is written nowhere; the base URL follows the embedding API's rules; redirects are never
followed; each fault is one sentence.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from typing import Any

from ragviz.embedding.openai_api import check_api_base
from ragviz.errors import InputError, RerankAPIError
from ragviz.retrieval.scorers import ScoreScale, Vectors, option_error

KEY_ENV = "RAGVIZ_RERANK_API_KEY"
FORMATS = ("auto", "cohere", "tei")
TIMEOUT_S = 30.0
MAX_RETRY_AFTER_S = 10.0
SCALE = ScoreScale(low=-20.0, high=1.0, step=0.01, label="chart.rerank_score", bounded=False)


class ApiReranker:
    """One rerank API model at ``base``."""

    scale = SCALE

    def __init__(self, model: str, base: str, fmt: str = "auto",
                 timeout_s: float = TIMEOUT_S) -> None:
        self.model, self.base, self.format, self.timeout_s = model, base, fmt, timeout_s
        self.name = f"api:{model}"
        self.options = ",".join([f"base={base}", *([f"format={fmt}"] if fmt != "auto" else [])])

    @classmethod
    def from_options(cls, model: str, settings: dict[str, str]) -> ApiReranker:
        settings = dict(settings)
        base = settings.pop("base", "") or os.environ.get("RAGVIZ_RERANK_BASE", "")
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
        if not texts:
            return []
        tei = self.format == "tei"
        answer, status = self._post(self._body(question, texts, tei))
        if self.format == "auto" and status in (400, 422):
            tei = True
            answer, status = self._post(self._body(question, texts, tei))
        if status >= 400:
            raise self._status_error(status)
        return parse_scores(answer, len(texts))

    def _body(self, question: str, texts: Sequence[str], tei: bool) -> dict[str, Any]:
        if tei:
            return {"query": question, "texts": list(texts), "raw_scores": False}
        return {"model": self.model, "query": question, "documents": list(texts),
                "top_n": len(texts)}

    def _post(self, body: dict[str, Any], retried: bool = False) -> tuple[Any, int]:
        import httpx

        key = os.environ.get(KEY_ENV, "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            response = httpx.post(f"{self.base}/rerank", json=body, headers=headers,
                                  timeout=self.timeout_s, follow_redirects=False)
        except httpx.TimeoutException:
            raise RerankAPIError(key="rerank.timeout", base=self.base,
                                 seconds=f"{self.timeout_s:g}") from None
        except httpx.HTTPError:
            raise RerankAPIError(key="rerank.unreachable", base=self.base) from None
        if response.status_code == 429 and not retried:
            time.sleep(_retry_after(response.headers.get("retry-after")))
            return self._post(body, retried=True)
        if 300 <= response.status_code < 400:
            raise RerankAPIError(key="rerank.redirect", base=self.base)
        if response.status_code >= 400:
            return None, response.status_code
        try:
            return response.json(), response.status_code
        except ValueError:
            raise RerankAPIError(key="rerank.not_json", base=self.base) from None

    def _status_error(self, status: int) -> RerankAPIError:
        if status in (401, 403):
            return RerankAPIError(key="rerank.unauthorized", base=self.base, env=KEY_ENV)
        if status == 429:
            return RerankAPIError(key="rerank.rate_limited", base=self.base)
        return RerankAPIError(key="rerank.status", base=self.base, status=status)


def _retry_after(header: str | None) -> float:
    try:
        seconds = float(header) if header else 1.0
    except ValueError:
        seconds = 1.0
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S) if math.isfinite(seconds) else 1.0


def parse_scores(answer: Any, count: int) -> list[float]:
    """One score per document from either format; RerankAPIError when the results are not
    exactly one finite score for each of the ``count`` documents."""
    if isinstance(answer, dict) and isinstance(answer.get("results"), list):
        rows, field = answer["results"], "relevance_score"
    elif isinstance(answer, list):
        rows, field = answer, "score"
    else:
        raise RerankAPIError(key="rerank.bad_results", why="no results list")
    scores: dict[int, float] = {}
    for row in rows:
        index = row.get("index") if isinstance(row, dict) else None
        value = row.get(field, row.get("score")) if isinstance(row, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise RerankAPIError(key="rerank.bad_results", why=f"an index out of 0..{count - 1}")
        if not isinstance(value, int | float) or isinstance(value, bool) \
                or not math.isfinite(value):
            raise RerankAPIError(key="rerank.bad_results", why="a score that is not a number")
        scores[index] = float(value)
    if len(scores) != count or len(rows) != count:
        raise RerankAPIError(key="rerank.bad_results",
                             why=f"{len(rows)} results for {count} documents")
    return [scores[i] for i in range(count)]
