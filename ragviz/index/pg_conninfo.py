"""A Postgres connection string read as libpq reads it, and its secrets kept out of every
sentence.

``targets`` lists every place libpq may connect to (each entry of a multi-host ``host`` list,
each ``hostaddr``, their ports), read with libpq's own parser (``conninfo_to_dict``): a host
check that saw only the first host let libpq reach the others. ``visitor_refusal`` names what a
visitor of a shared app may not set (a ``service`` names hosts and passwords in the server's
files; ``passfile`` and the TLS key and certificate files are files of the server).
``redact`` takes every password out of a text before it is said: libpq's parse errors quote
the token they stopped at, which may be the password (``%ZZ``, a space, ``?password=``).
"""

from __future__ import annotations

import os
import re
from urllib.parse import unquote

from ragviz.errors import IndexInputError

DEFAULT_PORT = 5432
HIDDEN = "***"
# Parameters that name a file (or a service file entry) on the machine ragviz runs on.
SERVER_FILES = ("service", "passfile", "sslkey", "sslcert", "sslrootcert", "sslcrl",
                "sslcrldir", "sslpassword")
_SECRET_KEYS = r"(?:password|sslpassword)"
# ``password=value`` in a URI's query (``&``-separated) or a keyword string (quoted or not).
_KEYWORD_SECRET = re.compile(
    rf"(?:^|[?&\s]){_SECRET_KEYS}\s*=\s*('(?:[^'\\]|\\.)*'?|[^&\s]*)", re.IGNORECASE)
_URI_USERINFO = re.compile(r"^\s*postgres(?:ql)?://([^/?#]*)@", re.IGNORECASE)
_QUOTED = re.compile(r'"[^"]*"')


def secrets(spec: str) -> list[str]:
    """Every password ``spec`` may hold, as written and as libpq decodes it (longest first):
    the URI's ``user:password@`` (split at the first and at the last ``@``), and each
    ``password=`` / ``sslpassword=`` value."""
    found: set[str] = set()
    userinfo = _URI_USERINFO.match(spec)
    if userinfo:
        whole = userinfo.group(1)
        for part in (whole, whole.split("@", 1)[0]):
            if ":" in part:
                found.add(part.split(":", 1)[1])
    for match in _KEYWORD_SECRET.finditer(spec):
        found.add(match.group(1).strip("'"))
    found |= {unquote(s) for s in found}
    return sorted((s for s in found if s), key=len, reverse=True)


def redact(text: str, spec: str) -> str:
    """``text`` with ``spec`` and every password it holds replaced by ``***``."""
    return without_secrets(text.replace(spec, HIDDEN) if spec else text, spec)


def without_secrets(text: str, spec: str) -> str:
    """``text`` with every password ``spec`` holds replaced by ``***``."""
    for secret in secrets(spec):
        text = text.replace(secret, HIDDEN)
    return text


def parse(spec: str) -> dict[str, str]:
    """libpq's reading of ``spec``; one sentence (no token of it quoted) when it cannot."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        return {k: str(v) for k, v in conninfo_to_dict(spec).items() if v is not None}
    except Exception as error:
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        reason = _QUOTED.sub('"…"', redact(first, spec))  # the token may be a password
        raise IndexInputError(key="idx.pg_unparsable", reason=reason[:160]) from None


def targets(parts: dict[str, str]) -> list[tuple[str, int]]:
    """Every (host, port) libpq may connect to: each ``host`` and each ``hostaddr`` of the
    lists (a Unix socket's folder as its host; none given: libpq's ``PGHOST``/``PGHOSTADDR``,
    else ``localhost``), with its port (one port for all, or one each; ``PGPORT``, 5432)."""
    hosts = _listed(parts.get("host") or os.environ.get("PGHOST", "")) or ["localhost"]
    addresses = _listed(parts.get("hostaddr") or os.environ.get("PGHOSTADDR", ""))
    ports = _listed(parts.get("port") or os.environ.get("PGPORT", ""))
    count = max(len(hosts), len(addresses))
    out = []
    for n in range(count):
        port = _port(ports[n] if n < len(ports) else (ports[0] if len(ports) == 1 else ""))
        address = addresses[n] if n < len(addresses) else ""
        host = hosts[n] if n < len(hosts) else ""
        if address:
            out.append((address.lower(), port))
        if host or not address:  # an empty host without an address: the local socket
            out.append(((host or "localhost").lower(), port))
    return list(dict.fromkeys(out))


def visitor_refusal(parts: dict[str, str]) -> str | None:
    """The first parameter a visitor of a shared app may not set, else None."""
    return next((key for key in SERVER_FILES if parts.get(key)), None)


def _listed(value: str) -> list[str]:
    return [item.strip() for item in value.split(",")] if value.strip() else []


def _port(value: str) -> int:
    if not value:
        return DEFAULT_PORT
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise IndexInputError(key="idx.pg_unparsable", reason=f"port {value[:12]!r}")
    return int(value)
