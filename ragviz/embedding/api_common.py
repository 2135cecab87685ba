"""What every remote API ragviz calls shares (the embeddings of ``ragviz.embedding.openai_api``,
the chat of ``ragviz.answering.chat``, the rerank of ``ragviz.retrieval.rerank_api``): the
base-URL rules, which bases may receive the server's own keys, the client (no redirect, a
deadline for the whole reply, a cap on its bytes; ``guarded_http``), the run's time budget for
the embedding and rerank APIs (:func:`api_budget`), the retries, and the words for a connection
fault.

A key lives only inside its client; :func:`server_message` blanks it out of whatever a server
echoes, so it reaches no message. A key read from the server's environment goes only to the
bases the operator allowed (:func:`server_key`): a visitor's base needs the visitor's key.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from ragviz.errors import ModelLoadError
from ragviz.i18n import Message
from ragviz.inputs.documents import shorten

DEFAULT_API_BASE = "https://api.openai.com/v1"
CONNECT_TIMEOUT_S = 5.0
NO_KEY = "no-key"  # local servers (Ollama, TEI) ignore the key but the client needs one
KEY_HOSTS_ENV = "RAGVIZ_KEY_HOSTS"  # the operator's list of hosts the server's keys may go to
MAX_RETRY_WAIT_S = 10.0
API_BUDGET_S = 1800.0  # a run's time for the embedding and rerank APIs in all (--api-budget)
API_BUDGET_ENV = "RAGVIZ_API_BUDGET"  # the operator's own default (the app's only way)
MAX_API_BUDGET_S = 86_400
T = TypeVar("T")
if TYPE_CHECKING:
    from ragviz.embedding.guarded_http import Watch
# True while the operator's own command runs (the CLI: every base there was typed by the
# person whose keys they are, or allowed by them with --allow-api); never in the app
_OPERATOR_BASES: ContextVar[bool] = ContextVar("operator_bases", default=False)


class RunBudget:
    """A run's time for the embedding and rerank APIs: ``seconds`` in all, counted from the
    run's first request (as ``--llm-budget`` is); each request ends by then, and none begins
    after."""

    def __init__(self, seconds: float, should_stop: Callable[[], bool] | None = None) -> None:
        self.seconds = seconds
        self.should_stop = should_stop  # the run's own stop (a background job's cancel)
        self._ends: float | None = None
        self._lock = threading.Lock()

    def ends(self) -> float:
        """When the budget ends (``time.monotonic``): set by the first request that asks."""
        with self._lock:
            if self._ends is None:
                self._ends = time.monotonic() + self.seconds
            return self._ends


_RUN_BUDGET: ContextVar[RunBudget | None] = ContextVar("api_run_budget", default=None)


def check_api_base(base: str) -> str:
    """``base`` without its trailing slash when it is ``http(s)://host[:port][/path]``;
    else ModelLoadError naming it (credentials blanked out)."""
    text = base.strip().rstrip("/")
    shown = shorten(without_credentials(text), 80)
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  (raises ValueError on a port that is not a number)
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname \
            or not text.lower().startswith(("http://", "https://")):
        raise ModelLoadError(key="api.base_scheme", url=repr(shown))
    if parts.username is not None or parts.password is not None:
        raise ModelLoadError(key="api.base_credentials", url=repr(shown))
    if parts.query or parts.fragment:
        raise ModelLoadError(key="api.base_query", url=repr(shown))
    return text


def without_credentials(url: str) -> str:
    """``url`` with anything between ``://`` and an ``@`` of its host part replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    host, slash, path = rest.partition("/")
    if "@" in host:
        host = "***@" + host.rpartition("@")[2]
    return f"{scheme}{sep}{host}{slash}{path}"


@contextmanager
def operator_bases() -> Iterator[None]:
    """While it lasts, every base URL is the operator's own choice (the command line's), so
    the server's keys may go to it."""
    token = _OPERATOR_BASES.set(True)
    try:
        yield
    finally:
        _OPERATOR_BASES.reset(token)


def budget_seconds() -> float:
    """The run's budget for the embedding and rerank APIs unless a command says otherwise:
    ``RAGVIZ_API_BUDGET`` (seconds, in (0, 86,400]) when the operator set it, else 1,800."""
    raw = os.environ.get(API_BUDGET_ENV, "").strip()
    try:
        seconds = float(raw) if raw and len(raw) <= 20 else API_BUDGET_S
    except ValueError:
        return API_BUDGET_S
    return seconds if 0 < seconds <= MAX_API_BUDGET_S else API_BUDGET_S


@contextmanager
def api_budget(seconds: float, should_stop: Callable[[], bool] | None = None
               ) -> Iterator[RunBudget]:
    """While it lasts (one command, one run of the app's page, a background job), the
    requests to the embedding and rerank APIs made in this context share ``seconds`` from
    the first of them: a slow API that answers each request just before its own deadline
    still ends the run by then; ``should_stop`` ends the request in flight as a Cancel."""
    budget = RunBudget(seconds, should_stop)
    token = _RUN_BUDGET.set(budget)
    try:
        yield budget
    finally:
        _RUN_BUDGET.reset(token)


def run_budget() -> RunBudget | None:
    """The budget of the run this context belongs to (None: each request's deadline only)."""
    return _RUN_BUDGET.get()


def _host(url: str) -> tuple[str, int | None]:
    """(host, port) of a URL or a ``host[:port]`` entry; a URL without a port gets its
    scheme's, an entry without one None (any port)."""
    parts = urlsplit(url if "://" in url else f"//{url}")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is None and parts.scheme:
        port = 443 if parts.scheme.lower() == "https" else 80
    return (parts.hostname or "").lower(), port


def key_allowed(base: str, own_bases: Sequence[str]) -> bool:
    """The operator allowed ``base`` to receive the server's keys: its host is one of
    ``own_bases`` (the key's own provider, the operator's own base settings) or is listed
    in ``RAGVIZ_KEY_HOSTS`` (``host`` or ``host:port``, comma-separated)."""
    if _OPERATOR_BASES.get():
        return True
    host, port = _host(base)
    allowed = [entry.strip() for entry in os.environ.get(KEY_HOSTS_ENV, "").split(",")]
    for entry in [*own_bases, *allowed]:
        if not entry:
            continue
        their_host, their_port = _host(entry)
        if their_host == host and their_port in (None, port):
            return True
    return False


def server_key(variables: Sequence[str], base: str, own_bases: Sequence[str]) -> str | None:
    """The first key set among the server's environment ``variables``, when ``base`` may
    receive it (:func:`key_allowed`); else None: nothing of the server's is sent."""
    key = next((os.environ[v] for v in variables if os.environ.get(v)), None)
    return key if key is not None and key_allowed(base, own_bases) else None


def make_client(base: str, key: str, timeout_s: float, max_bytes: int) -> tuple[Any, Watch]:
    """The official client over the guarded connection (no redirect, the reply's deadline and
    byte cap), and the watch its requests begin with; it retries nothing itself
    (:func:`with_retries` does)."""
    try:
        import openai
    except ImportError as error:
        raise ModelLoadError(key="api.needs_package") from error
    from ragviz.embedding.guarded_http import Watch, guarded_client

    watch = Watch(max_bytes)
    http = guarded_client(watch, timeout_s, min(CONNECT_TIMEOUT_S, timeout_s))
    client: Any = http  # the openai client takes the httpx client as it takes its own
    return openai.OpenAI(api_key=key, base_url=base, timeout=timeout_s, max_retries=0,
                         http_client=client), watch


def retryable(status: int) -> bool:
    return status == 429 or status >= 500


def with_retries(call: Callable[[], T], retries: int, watch: Watch) -> T:
    """``call()``, tried again up to ``retries`` times after a 429, a 5xx or a lost
    connection (never after a timeout or a stop: the deadline is spent), pausing as the
    server's Retry-After says (at most 10 s) or 0.5, 1, 2... s."""
    import openai

    for attempt in range(retries + 1):
        try:
            return call()
        except openai.APIStatusError as error:
            if attempt == retries or not retryable(error.status_code):
                raise
            pause = retry_after(error.response.headers, attempt)
        except openai.APIConnectionError as error:
            if attempt == retries or isinstance(error, openai.APITimeoutError):
                raise
            pause = retry_after({}, attempt)
        watch.wait(pause)
    raise AssertionError("unreachable")  # pragma: no cover


def retry_after(headers: Any, attempt: int) -> float:
    """The pause before try ``attempt + 1``: the server's ``retry-after-ms`` or
    ``retry-after`` (seconds), else 0.5 * 2^attempt; at most 10 s."""
    milliseconds, header = headers.get("retry-after-ms"), headers.get("retry-after")
    seconds = 0.5 * 2 ** attempt
    try:
        if milliseconds and len(milliseconds) < 20:
            seconds = float(milliseconds) / 1000
        elif header and len(header) < 20:
            seconds = float(header)
    except ValueError:
        pass
    return min(max(seconds, 0.0), MAX_RETRY_WAIT_S) if math.isfinite(seconds) else 1.0


def connection_reason(error: BaseException) -> Message:
    """Why a connection failed, in words (the chain of causes read, never shown)."""
    chain: list[str] = []
    current: BaseException | None = error
    while current is not None and len(chain) < 8:
        chain.append(f"{type(current).__name__} {current}")
        current = current.__cause__ or current.__context__
    text = " ".join(chain).lower()
    if "name or service not known" in text or "nodename nor servname" in text or (
        "gaierror" in text or "name resolution" in text
    ):
        return Message("api.reason.dns")
    if "refused" in text:
        return Message("api.reason.refused")
    return Message("api.reason.failed")


def server_message(error: Any, client: Any) -> str:
    """The error text the server sent, the client's key blanked out, cut to one line."""
    body = getattr(error, "body", None)
    message = body.get("message", "") if isinstance(body, dict) else ""
    text = str(message or body or "")
    key = str(getattr(client, "api_key", "") or "")
    if key and key != NO_KEY:
        text = text.replace(key, "***")
    return " ".join(text.split())[:200]
