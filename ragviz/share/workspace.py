"""A workspace (document, labelled questions, every setting, model) to and from JSON, and the
checks of each shared value that links (``ragviz.share.links``, the one URL codec) use too.

The JSON is plain data read with ``json.loads`` and checked field by field: nothing is
executed or unpickled, and an oversize or malformed file is refused with a message.
Exporting an imported file gives back the same bytes, because export is canonical
(fixed key order, two-space indent, a final newline) and import keeps every field.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ragviz.chunking import ChunkerConfig, check_config, get_spec
from ragviz.chunking.config import OLD_FIELD_NAMES
from ragviz.chunking.registry import param_kind
from ragviz.embedding.models import BUNDLED_MODELS, DEFAULT_MODEL
from ragviz.embedding.openai_api import OPENAI_PREFIX, parse_openai_name
from ragviz.errors import InputError, ModelLoadError
from ragviz.evaluation.results import MAX_EXPAND
from ragviz.i18n import LANGUAGES, Grouped, Listed, Message, message
from ragviz.inputs.documents import (
    MAX_DOCUMENT_CHARS,
    MAX_QUESTIONS,
    check_document,
    looks_binary_text,
    shown,
)
from ragviz.inputs.limits import (
    HUB_ID,
    MAX_MODEL_CHARS,
    MODELS_DIR_ENV,
    TOP_K_RANGE,
    in_models_dir,
)
from ragviz.inputs.questions import LabelledQuestion, check_question, references_from_json
from ragviz.retrieval.scorers import DEFAULT_SCORER, OPEN_FLOOR_TOP, get_scorer, scorer_names

RERANK_STAGE = "+rerank("

FORMAT = "ragviz-workspace"
VERSION = 1
MAX_WORKSPACE_BYTES = 2 * MAX_DOCUMENT_CHARS + 500_000
# openai:<model>[@http(s)://host[:port][/path]]: no spaces, quotes, user:password@ or query.
OPENAI_NAME = re.compile(
    r"openai:[A-Za-z0-9][A-Za-z0-9_.:/-]*(@https?://[A-Za-z0-9.-]+(:\d{1,5})?(/[A-Za-z0-9_./-]*)?)?"
)

# The article's before and after, at their spec defaults: fixed(120, 0), sentence(220, 1).
DEFAULT_CONFIG_A = ChunkerConfig.create("fixed")
DEFAULT_CONFIG_B = ChunkerConfig.create("sentence")


@dataclass(frozen=True)
class Settings:
    """Everything that decides what the page shows, apart from the document and questions."""

    config_a: ChunkerConfig = DEFAULT_CONFIG_A
    config_b: ChunkerConfig = DEFAULT_CONFIG_B
    top_k: int = 2
    floor: float = 0.0
    model: str = "use-multilingual"
    language: str = "en"
    sample: str | None = None
    # Configuration B's own model and floor; None means "the same as A" (``model``,
    # ``floor``), so files and links written before B could have its own model read the same.
    model_b: str | None = None
    floor_b: float | None = None
    # The model a floor was set on when that is not its side's model (the page warns and
    # offers to recalibrate); None means "set on its own model", as in older files and links.
    floor_on: str | None = None
    floor_b_on: str | None = None
    # Retrieval per configuration: A's scorer spec (``cosine``, ``bm25``, ``hybrid``, with
    # ``+rerank(sentence-max)``) and how many neighbours join each hit in the prompt; B's
    # None means "the same as A", as in files and links from before.
    scorer: str = DEFAULT_SCORER
    scorer_b: str | None = None
    expand: int = 0
    expand_b: int | None = None
    # The page's second level ("More controls") was on: the link or file reopens with it.
    more_controls: bool = False

    def uses_advanced(self) -> bool:
        """Whether a setting only the second level shows is in use (another model, scorer
        or expansion, B's own floor): the page then opens with that level on, so what the
        settings do can be seen and changed."""
        return (self.more_controls or self.model != DEFAULT_MODEL or self.model_b is not None
                or self.floor_b is not None or self.scorer_b is not None
                or self.scorer != DEFAULT_SCORER or bool(self.expand)
                or self.expand_b is not None)

    def scorer_of(self, side: str) -> str:
        """The scorer spec configuration ``side`` ranks with."""
        return self.scorer_b if side == "b" and self.scorer_b is not None else self.scorer

    def expand_of(self, side: str) -> int:
        return self.expand_b if side == "b" and self.expand_b is not None else self.expand

    def model_of(self, side: str) -> str:
        """The model configuration ``side`` ("a" or "b") uses."""
        return self.model_b if side == "b" and self.model_b is not None else self.model

    def floor_of(self, side: str) -> float:
        """The floor configuration ``side`` uses (B has its own only with its own model)."""
        return self.floor_b if side == "b" and self.floor_b is not None else self.floor

    def checked(self) -> Settings:
        """Return self, or raise InputError for a value out of range."""
        for name, config in (("A", self.config_a), ("B", self.config_b)):
            try:
                check_config(config)
            except ValueError as error:
                raise InputError(key="workspace.configuration", name=name, error=error) from None
        check_top_k(self.top_k)
        for side in ("a", "b"):
            check_scorer(self.scorer_of(side))
            check_expand(self.expand_of(side))
        check_floor(self.floor, self.scorer)
        check_model(self.model)
        if self.model_b is not None:
            check_model(self.model_b)
        if self.floor_b is not None:
            check_floor(self.floor_b, self.scorer_of("b"))
        for model in (self.floor_on, self.floor_b_on):
            if model is not None:
                check_model(model)
        check_language(self.language)
        return self


# One check per shared value: a workspace file and a link both use them (a link names each
# bad value and keeps the good ones; a workspace file is refused as a whole).


def check_top_k(value: int) -> int:
    """top_k inside the slider's range (TOP_K_RANGE), or InputError."""
    low, high = TOP_K_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(key="workspace.between", name="top_k", low=low, high=high,
                         got=shown(value))
    return value


def check_floor(value: float, scorer: str = DEFAULT_SCORER) -> float:
    """A finite floor on the scorer's scale (cosine's: FLOOR_RANGE), or InputError."""
    scale = get_scorer(scorer).scale
    low, high = scale.low, scale.high if scale.bounded else OPEN_FLOOR_TOP
    if not math.isfinite(value) or value < low or value > high:
        raise InputError(key="workspace.between", name="floor", low=f"{low:g}",
                         high=f"{high:g}", got=shown(value))
    return value


# What a link or a workspace may ask of the app: the registered scorers, and a rerank stage
# only with sentence-max (offline, the session's own model). A CrossEncoder would download
# a model and a rerank API would send the questions to a host the link chose: the CLI does
# those, on its user's own command.
APP_RERANKERS = ("sentence-max",)


def check_scorer(value: str) -> str:
    """A scorer spec the app may run (see APP_RERANKERS), or InputError."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_MODEL_CHARS:
        raise InputError(key="workspace.scorer", got=shown(value),
                         known=Listed(scorer_names()))
    rest = value.partition(RERANK_STAGE)[2]
    if rest and rest.removesuffix(")").split(",")[0] not in APP_RERANKERS:
        raise InputError(key="workspace.reranker", got=shown(value),
                         allowed=", ".join(APP_RERANKERS))
    get_scorer(value)  # one sentence for an unknown scorer or option
    return value


def check_expand(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_EXPAND:
        raise InputError(key="workspace.between", name="expand", low=0, high=MAX_EXPAND,
                         got=shown(value))
    return value


def check_language(value: str) -> str:
    if value not in LANGUAGES:
        raise InputError(key="workspace.language", known=", ".join(LANGUAGES), got=shown(value))
    return value


def check_model(value: str) -> str:
    """A bundled name, a hub id (owner/name), an OpenAI-compatible API model
    (``openai:<model>[@<http(s) base URL>]``, never a key), or a folder under
    RAGVIZ_MODELS_DIR.

    Any other name is refused with the same sentence whether or not such a path exists on
    the server, so a shared link or file cannot probe the server's filesystem.
    """
    if not value.strip() or len(value) > MAX_MODEL_CHARS:
        raise InputError(key="workspace.model_length", limit=MAX_MODEL_CHARS)
    if value in BUNDLED_MODELS or HUB_ID.fullmatch(value) or in_models_dir(value):
        return value
    if OPENAI_NAME.fullmatch(value):
        return value
    if value.startswith(OPENAI_PREFIX):  # say what is wrong with the API's address
        try:
            parse_openai_name(value)
        except ModelLoadError as error:
            raise InputError(key="workspace.model_error", error=error) from None  # no password
    raise InputError(key="workspace.model_unknown", name=shown(value), env=MODELS_DIR_ENV)


@dataclass(frozen=True)
class Workspace:
    """What a user exports to reopen later or attach to a ticket.

    ``waiting``: questions written for a previous document, exported while the app asked
    whether to keep or clear them; they are not scored (by the app or ``--workspace``)
    until kept, and the app asks again when the file reopens (issue 45 item 5)."""

    document: str
    questions: tuple[LabelledQuestion, ...] = ()
    settings: Settings = field(default_factory=Settings)
    waiting: tuple[LabelledQuestion, ...] = ()

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "document": self.document,
            "questions": [q.to_dict() for q in self.questions],
            "settings": _settings_to_dict(self.settings),
        }
        if self.waiting:  # written only when there are some: older files export the same
            data["waiting_questions"] = [q.to_dict() for q in self.waiting]
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes, what: Message | None = None) -> Workspace:
        """The workspace in ``text``; ``what`` names it in messages (the workspace file, a
        link's document)."""
        what = what or Message("workspace.the_file")
        if len(text) > MAX_WORKSPACE_BYTES:
            raise InputError(key="workspace.too_big", what=what, n=len(text),
                             limit=Grouped(MAX_WORKSPACE_BYTES))
        try:
            data = json.loads(text, parse_constant=_no_constant, parse_int=_short_int)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise InputError(key="workspace.not_json", what=what, error=str(error)) from None
        except RecursionError:
            raise InputError(key="workspace.too_deep", what=what) from None
        except ValueError as error:  # e.g. an integer of thousands of digits, NaN
            raise InputError(key="workspace.unreadable_value", what=what, error=error) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError(key="workspace.not_workspace")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
            raise InputError(key="workspace.version", got=shown(data.get("version")))
        _only(data, {"format", "version", "document", "questions", "settings",
                     "waiting_questions"}, "workspace")
        raw_document = _typed(data, "document", str, "workspace")
        document = check_document(_encodable(raw_document, "document"))
        if looks_binary_text(document):  # the rule the CLI and the uploader refuse text by
            raise InputError(key="workspace.binary_document")
        raw_questions = _typed(data, "questions", list, "workspace")
        raw_waiting = (_typed(data, "waiting_questions", list, "workspace")
                       if "waiting_questions" in data else [])
        if len(raw_questions) + len(raw_waiting) > MAX_QUESTIONS:
            raise InputError(key="workspace.too_many_questions",
                             n=len(raw_questions) + len(raw_waiting), limit=MAX_QUESTIONS)
        questions = tuple(_question(q, i) for i, q in enumerate(raw_questions))
        waiting = tuple(_question(q, i) for i, q in enumerate(raw_waiting, len(raw_questions)))
        settings = _settings_from_dict(_typed(data, "settings", dict, "workspace"))
        return cls(document, questions, settings, waiting)


def _no_constant(name: str) -> Any:
    raise InputError(key="workspace.constant", name=name)


def _short_int(digits: str) -> int:
    """Python refuses integers of over 4,300 digits with advice for programmers; say it plainly."""
    if len(digits.lstrip("-")) > 100:
        raise InputError(key="workspace.long_number", n=len(digits.lstrip('-')))
    return int(digits)


def _encodable(text: str, where: str | Message) -> str:
    """Refuse text that cannot be written back as UTF-8 (lone surrogates), so that an
    imported workspace can always be exported again."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(key="workspace.surrogates", where=where) from None
    return text


def _only(data: Mapping[str, Any], allowed: set[str], where: str | Message) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise InputError(key="workspace.unknown_fields", n=len(unknown), where=where,
                         names=", ".join(sorted(unknown)))


def _typed(data: Mapping[str, Any], key: str, kind: type, where: str | Message) -> Any:
    if key not in data:
        raise InputError(key="workspace.missing_field", where=where, name=repr(key))
    value = data[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InputError(key="workspace.field_type", where=where, name=repr(key),
                         kind=kind.__name__, got=type(value).__name__)
    return value


def _question(raw: Any, i: int) -> LabelledQuestion:
    where = message("questions.number", n=i + 1)
    if not isinstance(raw, dict):
        raise InputError(key="workspace.not_object", where=where)
    _only(raw, {"question", "answer", "answerable", "references"}, where)
    text = _encodable(_typed(raw, "question", str, where), where)
    answer = _encodable(_typed(raw, "answer", str, where), where)
    answerable = raw.get("answerable")
    if answerable is not None and not isinstance(answerable, bool):
        raise InputError(key="workspace.answerable", where=where)
    if not text.strip():
        raise InputError(key="workspace.empty_question", where=where)
    references = references_from_json(raw["references"], "", where) \
        if "references" in raw else ()
    if answerable is False and (answer or references):
        raise InputError(key="workspace.unanswerable_with_answer", where=where)
    question = LabelledQuestion(text, answer, answerable, references)
    checked = check_question(question, where)
    if checked != question:
        raise InputError(key="workspace.whitespace", where=where)
    return question


def _config_to_dict(config: ChunkerConfig) -> dict[str, Any]:
    return config.to_dict()


def _config_from_dict(raw: Any, where: str) -> ChunkerConfig:
    """A configuration from a file: every key typed by the registry, missing parameters at
    the chunker's spec defaults; the ranges are checked by ``Settings.checked``."""
    if not isinstance(raw, dict):
        raise InputError(key="workspace.not_object", where=where)
    chunker = _typed(raw, "chunker", str, where)
    try:
        spec = get_spec(chunker)
    except ValueError:
        raise InputError(key="workspace.unknown_chunker", where=where,
                         got=shown(chunker)) from None
    _only(raw, {"chunker", *OLD_FIELD_NAMES, *spec.names}, where)
    values: dict[str, Any] = {}
    for name in (n for n in raw if n != "chunker"):
        if raw[name] is None and (name in spec.alternatives or name not in spec.names):
            values[name] = None  # "no threshold"
        else:
            values[name] = _typed(raw, name, int if param_kind(name) == "int" else float, where)
    # A file from before values were stored once holds all six old fields: the ones this
    # chunker does not read were placeholders, checked for their type above and dropped.
    return ChunkerConfig.create(chunker, **{k: v for k, v in values.items() if k in spec.names})


def _settings_to_dict(settings: Settings) -> dict[str, Any]:
    """B's own model and floor are written only when set, so a file from before they
    existed exports the same bytes."""
    data: dict[str, Any] = {
        "config_a": _config_to_dict(settings.config_a),
        "config_b": _config_to_dict(settings.config_b),
        "top_k": settings.top_k,
        "floor": settings.floor,
        "model": settings.model,
        "language": settings.language,
        "sample": settings.sample,
    }
    for name in ("model_b", "floor_b", "floor_on", "floor_b_on", "scorer_b", "expand_b"):
        if getattr(settings, name) is not None:
            data[name] = getattr(settings, name)
    if settings.scorer != DEFAULT_SCORER:
        data["scorer"] = settings.scorer
    if settings.expand:
        data["expand"] = settings.expand
    if settings.more_controls:
        data["more_controls"] = True
    return data


def _settings_from_dict(raw: Mapping[str, Any]) -> Settings:
    where = "settings"
    _only(raw, {f.name for f in fields(Settings)}, where)
    sample = raw.get("sample")
    if sample is not None and not isinstance(sample, str):
        raise InputError(key="workspace.sample", where=where)
    return Settings(
        config_a=_config_from_dict(raw.get("config_a"), "settings.config_a"),
        config_b=_config_from_dict(raw.get("config_b"), "settings.config_b"),
        top_k=_typed(raw, "top_k", int, where),
        floor=_typed(raw, "floor", float, where),
        model=_typed(raw, "model", str, where),
        language=_typed(raw, "language", str, where),
        sample=sample,
        model_b=_typed(raw, "model_b", str, where) if raw.get("model_b") is not None else None,
        floor_b=_typed(raw, "floor_b", float, where) if raw.get("floor_b") is not None else None,
        floor_on=_typed(raw, "floor_on", str, where) if raw.get("floor_on") is not None else None,
        floor_b_on=(_typed(raw, "floor_b_on", str, where)
                    if raw.get("floor_b_on") is not None else None),
        scorer=_typed(raw, "scorer", str, where) if raw.get("scorer") is not None
        else DEFAULT_SCORER,
        scorer_b=_typed(raw, "scorer_b", str, where) if raw.get("scorer_b") is not None
        else None,
        expand=_typed(raw, "expand", int, where) if raw.get("expand") is not None else 0,
        expand_b=_typed(raw, "expand_b", int, where) if raw.get("expand_b") is not None
        else None,
        more_controls=_typed(raw, "more_controls", bool, where)
        if raw.get("more_controls") is not None else False,
    ).checked()
