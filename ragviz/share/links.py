"""Shareable links, the one URL codec: settings as short query parameters both ways, and the
work itself (document, questions, settings) compressed into one parameter ``w`` when it fits.

A link is input from anyone, so reading one never raises: each bad value is named once in
a short sentence, the good values of the same link still apply, and the carried work goes
through exactly the checks a workspace file does (``Workspace.from_json``), behind a
bounded decompression so a small link cannot inflate into gigabytes.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from ragviz.chunking import CHUNKER_NAMES, CHUNKER_PARAMS, ChunkerConfig, check_config, get_spec
from ragviz.errors import InputError
from ragviz.i18n import Message
from ragviz.inputs.documents import shown
from ragviz.inputs.limits import DECIMAL_NUMBER, MAX_INT_DIGITS, WHOLE_NUMBER
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import DEFAULT_SCORER, get_scorer
from ragviz.share.samples import get_sample
from ragviz.share.workspace import (
    MAX_WORKSPACE_BYTES,
    Settings,
    Workspace,
    check_expand,
    check_floor,
    check_language,
    check_model,
    check_scorer,
    check_top_k,
)

WORK_KEY = "w"
# Links up to ~8,000 characters open in every current browser and pass common proxies;
# the query may use 7,500 of them, leaving the rest for the server's address.
MAX_LINK_CHARS = 8_000
MAX_QUERY_CHARS = 7_500
# Natural text compresses at most ~10:1; beyond this a document cannot fit, so it is not
# compressed on every rerun just to find that out.
MAX_PLAIN_BYTES = 40 * MAX_QUERY_CHARS
MAX_PARAM_DIGITS = 12  # more digits than any slider holds: named, never parsed
# ASCII digits only: "\d" also takes "٣" and "３", which no link ragviz makes holds.
INTEGER = re.compile(rf"[+-]?[0-9]{{1,{MAX_PARAM_DIGITS}}}")
MAX_DECIMALS = 24  # a float repr: 17 significant digits after up to 4 zeros, or an exponent
DECIMAL = re.compile(rf"[+-]?([0-9]{{1,{MAX_PARAM_DIGITS}}}(\.[0-9]{{0,{MAX_DECIMALS}}})?"
                     rf"|\.[0-9]{{1,{MAX_DECIMALS}}})([eE][+-]?[0-9]{{1,3}})?")
BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
FLOAT_PARAMS = {"threshold", "percentile"}
PARAM_NAMES = sorted({name for names in CHUNKER_PARAMS.values() for name in names})
MORE_KEY = "more"  # the page's second level on ("More controls"): more=1
MAX_CONFIG_NUMBER = 10**9  # larger chunker numbers are refused before any widget sees them


# --- settings as query parameters, both ways -------------------------------------------------
def settings_to_query(settings: Settings) -> dict[str, str]:
    """Short query parameters for a shareable link (only the parameters each chunker reads)."""
    query: dict[str, str] = {}
    if settings.sample:
        query["sample"] = settings.sample
    for prefix, config in (("a", settings.config_a), ("b", settings.config_b)):
        query[f"{prefix}"] = config.chunker
        for name, value in config.params().items():
            if value is not None:
                query[f"{prefix}_{name}"] = _format_number(value)
    query["k"] = str(settings.top_k)
    query["floor"] = _format_number(settings.floor)
    query["model"] = settings.model
    if settings.model_b is not None:
        query["b_model"] = settings.model_b
    own_b_floor = settings.model_b is not None or settings.scorer_b is not None
    if settings.floor_b is not None and own_b_floor:  # else one floor for both (read_link)
        query["b_floor"] = _format_number(settings.floor_b)
    if settings.floor_on is not None:
        query["floor_on"] = settings.floor_on
    if settings.floor_b_on is not None:
        query["b_floor_on"] = settings.floor_b_on
    for key, value, default in (("scorer", settings.scorer, DEFAULT_SCORER),
                                ("b_scorer", settings.scorer_b, None),
                                ("expand", settings.expand, 0),
                                ("b_expand", settings.expand_b, None)):
        if value is not None and value != default:
            query[key] = str(value)
    query["lang"] = settings.language
    if settings.more_controls:
        query[MORE_KEY] = "1"
    return query


def read_query(
    query: Mapping[str, str], base: Settings | None = None
) -> tuple[Settings, list[Message]]:
    """Settings from a link, starting from ``base``; bad values are skipped and returned as
    problems (said by ``ragviz.present.link_notes``)."""
    settings = base or Settings()
    problems: list[Message] = []
    configs = {
        "a": _config_from_query(query, "a", settings.config_a, problems),
        "b": _config_from_query(query, "b", settings.config_b, problems),
    }
    values: dict[str, Any] = {"config_a": configs["a"], "config_b": configs["b"]}
    if query.get("model"):  # one model named: it is both sides', their floors set on it
        values.update(dict.fromkeys(("model_b", "floor_b", "floor_on", "floor_b_on")))
    for key, name, kind in (("k", "top_k", int), ("floor", "floor", float),
                            ("b_floor", "floor_b", float)):
        raw = query.get(key)
        if raw is None:
            continue
        if (WHOLE_NUMBER if kind is int else DECIMAL_NUMBER).fullmatch(raw) and \
                len(raw) <= MAX_INT_DIGITS:
            values[name] = kind(raw)
        else:
            problems.append(Message("link.not_a_number", {"param": key, "got": shown(raw)}))
    for key, name in (("model", "model"), ("b_model", "model_b"), ("lang", "language"),
                      ("sample", "sample"), ("floor_on", "floor_on"), ("b_floor_on", "floor_b_on")):
        if query.get(key):
            values[name] = query[key]
    candidate = replace(settings, **values)
    try:
        return candidate.checked(), problems
    except InputError as error:
        problems.append(error.message)
        return settings, problems


def _config_from_query(
    query: Mapping[str, str], prefix: str, base: ChunkerConfig, problems: list[Message]
) -> ChunkerConfig:
    """One side's configuration from a link. Every value is checked against the chunker's
    spec (the same ranges the sliders and workspace files use); each bad one is named,
    shortened, and skipped, and the good ones still apply."""
    config = base
    chunker = query.get(prefix)
    if chunker is not None and chunker != base.chunker:
        try:
            spec = get_spec(chunker)
            config = ChunkerConfig.create(chunker, **dict.fromkeys(spec.alternatives))
        except ValueError:
            problems.append(Message("link.not_a_chunker", {"param": prefix, "got": shown(chunker)}))
    spec = get_spec(config.chunker)
    for param in spec.params:
        raw = query.get(f"{prefix}_{param.name}")
        if raw is None:
            continue
        try:
            value = param.parse(raw)
        except ValueError as error:  # the message starts with the name
            problems.append(Message("link.side_value", {"side": prefix, "error": error}))
            continue
        others = dict.fromkeys(
            n for n in spec.alternatives if param.name in spec.alternatives and n != param.name
        )
        config = config.with_values(**others, **{param.name: value})
    config = _fitted_overlap(config, prefix, query, problems)
    try:
        return check_config(config)
    except ValueError as error:
        problems.append(Message("link.side_config", {"side": prefix, "error": error}))
        return base


def _fitted_overlap(config: ChunkerConfig, prefix: str, query: Mapping[str, str],
                    problems: list[Message]) -> ChunkerConfig:
    """The link's chunker and size kept when the overlap does not fit under the size: the
    overlap becomes the most that fits, said in a note that names the overlap's value only
    when the link set it (a default or the page's own value is no fault of the link's)."""
    spec = get_spec(config.chunker)
    if not spec.overlap_is_share():
        return config
    size_name, overlap_name = spec.size_axis or "", spec.overlap_axis or ""
    size, overlap = config.get(size_name), config.get(overlap_name)
    if size is None or overlap is None or overlap < size:
        return config
    fitted = spec.param(overlap_name).clamp(size - 1, 0, size - 1)
    key = f"{prefix}_{overlap_name}"
    if key in query:
        problems.append(Message("link.overlap_too_large", {
            "side": prefix, "param": key, "got": overlap, "size_name": size_name,
            "size": size, "fitted": fitted}))
    else:
        problems.append(Message("link.overlap_fitted", {
            "side": prefix, "overlap": overlap_name, "size_name": size_name, "size": size,
            "fitted": fitted}))
    return config.with_values(**{overlap_name: fitted})


def _format_number(value: float | int) -> str:
    """The shortest digits that read back as ``value`` (Python's float repr: 0.1 + 0.2 is
    0.30000000000000004, a tiny threshold 2.220446049250313e-16), which ``DECIMAL`` reads."""
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return repr(value)


# --- settings from a link ------------------------------------------------------------------


# A link's value changed so that it fits (kept, not ignored): a note, not a problem.
FITTED = ("link.overlap_fitted", "link.overlap_too_large")


def read_link(query: Mapping[str, str], base: Settings) -> tuple[Settings, list[Message]]:
    """Settings from a link's parameters on top of ``base``, and the problem of each bad
    value. Never raises: every bad value is named, every good one applies."""
    problems: list[Message] = []
    chunker_query = _chunker_query(query, problems)
    try:
        settings, chunker_problems = read_query(chunker_query, base)
        problems += chunker_problems
    except Exception:  # a link must never break the page
        settings = base
        problems.append(Message("link.chunkers_unreadable"))
    values = _read_values(query, problems)
    if "a_model" in values:
        values["model"] = values.pop("a_model")
    if "b_model" in values:
        values["model_b"] = values.pop("b_model")
    elif "model" in values:
        values["model_b"] = None  # a link from before B had its own model: one for both
    if "b_floor" in values:
        values["floor_b"] = values.pop("b_floor")
    if "model" in values:  # the floors of a link naming its model were set on it unless it says
        values.setdefault("floor_on", None)
        values.setdefault("floor_b_on", None)
    base_settings = settings
    settings = Settings(**{f.name: values.get(f.name, getattr(settings, f.name))
                           for f in fields(Settings)})
    settings = _floors_on_their_scales(settings, base_settings, problems)
    if settings.model_b == settings.model:
        settings = replace(settings, model_b=None)
    if settings.model_b is None and settings.scorer_b is None:  # one model, one scorer: one floor
        settings = replace(settings, floor_b=None, floor_b_on=None)
    if settings.floor_on == settings.model:
        settings = replace(settings, floor_on=None)
    if settings.floor_b_on is not None and settings.floor_b_on == settings.model_b:
        settings = replace(settings, floor_b_on=None)
    return settings, problems


READERS: tuple[tuple[str, Callable[[str], Any]], ...] = (
    ("k", lambda raw: _read_top_k(raw)),
    ("floor", lambda raw: _read_floor(raw)),
    ("model", check_model),
    ("a_model", check_model),
    ("b_model", check_model),
    ("b_floor", lambda raw: _read_floor(raw)),
    ("floor_on", check_model),
    ("b_floor_on", check_model),
    ("lang", check_language),
    ("sample", lambda raw: _read_sample(raw)),
    ("scorer", check_scorer),
    ("b_scorer", check_scorer),
    ("expand", lambda raw: _read_expand(raw)),
    ("b_expand", lambda raw: _read_expand(raw)),
    (MORE_KEY, lambda raw: _read_switch(raw)),
)
VALUE_NAMES = {"k": "top_k", "lang": "language", "b_floor_on": "floor_b_on",
               "b_scorer": "scorer_b", "b_expand": "expand_b", MORE_KEY: "more_controls"}


def _read_values(query: Mapping[str, str], problems: list[Message]) -> dict[str, Any]:
    """Each non-chunker value of a link read and checked on its own, named by its
    Settings field (``a_model``/``b_model``/``b_floor`` by their link names)."""
    values: dict[str, Any] = {}
    for key, read in READERS:
        raw = query.get(key)
        if raw is None or (raw == "" and key not in {"k", "floor", "b_floor"}):
            continue
        try:
            values[VALUE_NAMES.get(key, key)] = read(raw)
        except InputError as error:
            problems.append(Message("link.value_error", {"param": key, "error": error}))
        except Exception:
            problems.append(Message("link.unreadable", {"param": key, "got": shown(raw)}))
    return values


def _chunker_query(query: Mapping[str, str], problems: list[Message]) -> dict[str, str]:
    """The chunker parameters of a link that are worth parsing; the others are named."""
    kept: dict[str, str] = {}
    for prefix in ("a", "b"):
        chunker = query.get(prefix)
        if chunker is not None:
            if chunker in CHUNKER_NAMES:
                kept[prefix] = chunker
            else:
                problems.append(Message("link.not_a_chunker", {"param": prefix,
                                                               "got": shown(chunker)}))
        for name in PARAM_NAMES:
            key = f"{prefix}_{name}"
            raw = query.get(key)
            if raw is None:
                continue
            pattern = DECIMAL if name in FLOAT_PARAMS else INTEGER
            if pattern.fullmatch(raw):
                kept[key] = raw
            else:
                problems.append(Message("link.not_a_slider_number",
                                        {"param": key, "got": shown(raw)}))
    return kept


def _read_top_k(raw: str) -> int:
    if not INTEGER.fullmatch(raw):
        raise InputError(key="link.not_whole", got=shown(raw))
    return check_top_k(int(raw))


def _read_floor(raw: str) -> float:
    """A number; its range is the scorer's, checked with the other values (``checked``)."""
    if not DECIMAL.fullmatch(raw) or not math.isfinite(float(raw)):
        raise InputError(key="link.not_number", got=shown(raw))
    return float(raw)


def _floors_on_their_scales(settings: Settings, base: Settings,
                            problems: list[Message]) -> Settings:
    """Each floor checked on its side's scorer's scale (read first as a number: the scorer
    may come later in the link); one off its scale is named and the base's kept."""
    for name, scorer in (("floor", settings.scorer), ("floor_b", settings.scorer_of("b"))):
        value = getattr(settings, name)
        if value is None:
            continue
        try:
            check_floor(value, scorer)
        except InputError as error:
            problems.append(error.message)
            kept = getattr(base, name)
            try:
                kept = kept if kept is None else check_floor(kept, scorer)
            except InputError:
                kept = get_scorer(scorer).scale.low
            settings = replace(settings, **{name: kept})
    return settings


def _read_expand(raw: str) -> int:
    if not raw.isdigit() or len(raw) > 2:
        raise InputError(key="link.not_number", got=shown(raw))
    return check_expand(int(raw))


def _read_switch(raw: str) -> bool:
    if raw not in {"0", "1"}:
        raise InputError(key="link.not_switch", got=shown(raw))
    return raw == "1"


def _read_sample(raw: str) -> str:
    try:
        get_sample(raw)
    except (KeyError, ValueError):
        raise InputError(key="link.not_sample", got=shown(raw)) from None
    return raw


# --- the work (document, questions, settings) in the link ----------------------------------


@dataclass(frozen=True)
class SharedLink:
    """The query a page shows, and whether the work it describes rides in it.

    ``missing_chars`` is set when the work differs from the sample but does not fit: the
    compressed size the link would have needed."""

    query: dict[str, str]
    missing_chars: int | None = None


def share_query(settings: Settings, workspace: Workspace | None) -> SharedLink:
    """The link for this page: settings, plus the work when it is not the sample's own."""
    query = settings_to_query(settings)
    if workspace is None or _is_sample_work(workspace):
        return SharedLink(query)
    plain = compact_json(workspace)
    if len(plain) > MAX_PLAIN_BYTES:
        return SharedLink(query, missing_chars=len(plain) // 10)
    token = encode_work(plain)
    carried = {**query, WORK_KEY: token}
    if len(urlencode(carried)) > MAX_QUERY_CHARS:
        return SharedLink(query, missing_chars=len(token))
    return SharedLink(carried)


def _is_sample_work(workspace: Workspace) -> bool:
    name = workspace.settings.sample
    if not name:
        return False
    sample = _sample_work(name)
    return (sample is not None and not workspace.waiting
            and sample == (workspace.document, workspace.questions))


@lru_cache(maxsize=32)
def _sample_work(name: str) -> tuple[str, tuple[LabelledQuestion, ...]] | None:
    try:
        sample = get_sample(name)
        return sample.document(), tuple(sample.questions())
    except (KeyError, ValueError, OSError):
        return None


def compact_json(workspace: Workspace) -> bytes:
    """The workspace file's content without indentation (the same fields, fewer bytes)."""
    data = json.loads(workspace.to_json())
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def encode_work(plain: bytes) -> str:
    """deflate (level 9) then base64url without padding: safe in a query, no escaping."""
    return base64.urlsafe_b64encode(zlib.compress(plain, 9)).rstrip(b"=").decode("ascii")


def decode_work(token: str) -> Workspace:
    """The workspace a ``w`` parameter carries, or InputError with one short sentence."""
    if len(token) > 2 * MAX_LINK_CHARS:
        raise InputError(key="link.document_too_long")
    if not BASE64URL.fullmatch(token):
        raise InputError(key="link.damaged", why=Message("link.bad_characters"))
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        raise InputError(key="link.damaged", why=Message("link.mistyped")) from None
    inflater = zlib.decompressobj()
    try:
        plain = inflater.decompress(packed, MAX_WORKSPACE_BYTES + 1)
    except zlib.error:
        raise InputError(key="link.damaged", why=Message("link.no_unpack")) from None
    if len(plain) > MAX_WORKSPACE_BYTES or inflater.unconsumed_tail:
        raise InputError(key="link.unpacks_too_much")
    if not inflater.eof:
        raise InputError(key="link.damaged", why=Message("link.cut_short"))
    return read_workspace(plain, Message("link.the_document"))


def read_workspace(data: str | bytes, where: Message | None = None) -> Workspace:
    """``Workspace.from_json`` with every failure as InputError (said of ``where``: the
    workspace file, or a link's document), and chunker numbers kept small enough for the
    widgets (a 309-digit size would overflow a float)."""
    what = where or Message("workspace.the_file")
    try:
        workspace = Workspace.from_json(data, what)
    except InputError:
        raise
    except Exception:  # no file may produce a traceback
        raise InputError(key="link.not_a_workspace", what=what) from None
    for side, config in (("A", workspace.settings.config_a), ("B", workspace.settings.config_b)):
        _check_config_numbers(config, what, side)
    return workspace


def _check_config_numbers(config: ChunkerConfig, what: Message, side: str) -> None:
    for name, value in config.params().items():
        if value is not None and abs(value) > MAX_CONFIG_NUMBER:
            raise InputError(key="link.number_too_large", what=what, side=side, name=name,
                             got=shown(value))


def read_work(query: Mapping[str, str]) -> tuple[Workspace | None, InputError | None]:
    """The work a link carries (or None), and the error that says why it was refused."""
    token = query.get(WORK_KEY)
    if token is None:
        return None, None
    try:
        return decode_work(token), None
    except InputError as error:
        return None, error


def restored_summary(workspace: Workspace, pasted: bool) -> Message:
    """What a reopened link put back, in one sentence."""
    key = "link.restored_pasted" if pasted else "link.restored_sample"
    return Message(key, {"n": len(workspace.document),
                         "q": len(workspace.questions) + len(workspace.waiting)})
