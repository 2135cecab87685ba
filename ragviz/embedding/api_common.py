"""What every OpenAI-compatible API ragviz calls shares (the embeddings of
``ragviz.embedding.openai_api`` and the chat of ``ragviz.answering.chat``): the base-URL rules,
the client (timeouts and retries), and the words for a connection fault.

The key lives only inside the ``openai`` client; :func:`server_message` blanks it out of
whatever a server echoes, so it reaches no message.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ragviz.errors import ModelLoadError
from ragviz.inputs.documents import shorten

DEFAULT_API_BASE = "https://api.openai.com/v1"
CONNECT_TIMEOUT_S = 5.0
NO_KEY = "no-key"  # local servers (Ollama, TEI) ignore the key but the client needs one


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


def make_client(base: str, key: str, timeout_s: float, retries: int) -> Any:
    """The official client; it retries 408, 429, 5xx and lost connections itself, with
    exponential backoff honouring the server's Retry-After."""
    try:
        import openai
    except ImportError as error:
        raise ModelLoadError(key="api.needs_package") from error
    timeout = openai.Timeout(timeout_s, connect=min(CONNECT_TIMEOUT_S, timeout_s))
    return openai.OpenAI(api_key=key, base_url=base, timeout=timeout, max_retries=retries)


def retryable(status: int) -> bool:
    return status == 429 or status >= 500


def connection_reason(error: BaseException) -> str:
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
        return "the host name does not resolve"
    if "refused" in text:
        return "the connection was refused (is the server running on that port?)"
    return "the connection failed"


def server_message(error: Any, client: Any) -> str:
    """The error text the server sent, the client's key blanked out, cut to one line."""
    body = getattr(error, "body", None)
    message = body.get("message", "") if isinstance(body, dict) else ""
    text = str(message or body or "")
    key = str(getattr(client, "api_key", "") or "")
    if key and key != NO_KEY:
        text = text.replace(key, "***")
    return " ".join(text.split())[:200]
