"""The chunker registry: each chunker module declares its spec once and registers it here.

Everything that knows about chunker parameters derives from these specs: validation
(``check_config``), dispatch (``make_chunks``), the sweep grid, the CLI options, the app's
sliders, the workspace and link checks and the labels. Adding a chunker is one module that
calls ``register`` plus one import line in ``ragviz/chunking/__init__.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ragviz.chunking.base import ChunkingResult
from ragviz.i18n import STRINGS, t
from ragviz.inputs.documents import InputError, shown
from ragviz.inputs.limits import DECIMAL_NUMBER, MAX_INT_DIGITS, WHOLE_NUMBER

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

Number = int | float


@dataclass(frozen=True)
class Unit:
    """What a parameter counts. Its words are the catalog's, looked up by name:
    ``unit.<name>`` goes into slider labels ("size (characters)"), ``unit_count.<name>``
    (with ``.one``) into chart rows ("1 sentence"); a unit without them says no word."""

    name: str
    # How far a slider in this unit usefully reaches on a document of n characters.
    span: Callable[[int], int] | None = None

    def say(self, lang: str, n: Number | None = None) -> str:
        if n is None:
            return t(f"unit.{self.name}", lang) if f"unit.{self.name}" in STRINGS else ""
        key = f"unit_count.{self.name}"
        return t(f"{key}.one" if n == 1 else key, lang, n=n) if key in STRINGS else f"{n}"


def _character_span(n_chars: int) -> int:
    return max(40, min(n_chars, 4000))  # the whole document, capped so a slider stays usable


def _token_span(n_chars: int) -> int:
    return max(16, min(512, n_chars // 2 + 8))  # about two characters a token at least


CHARACTERS = Unit("characters", _character_span)
TOKENS = Unit("tokens", _token_span)
SENTENCES = Unit("sentences")
COSINE = Unit("cosine")
PERCENT = Unit("percent")


@dataclass(frozen=True)
class Param:
    """One chunker parameter: its kind, unit, accepted range and default; its label is the
    catalog's ``param_label.<name>`` (the name itself when the catalog has none).

    The range is what every interface accepts (links, workspaces, CLI, sliders); a slider
    may show less of it when ``fits_document`` caps it at a share of the document's span,
    and then clamps a larger value (never refuses it with a traceback).
    """

    name: str
    kind: Literal["int", "float"]
    unit: Unit
    minimum: Number
    maximum: Number
    default: Number
    step: Number = 1
    # Share of the unit's document span a slider reaches (None: the whole range).
    fits_document: float | None = None

    def title(self, lang: str = "en") -> str:
        """The parameter's name in ``lang`` ("sobreposição" for ``overlap_sentences``)."""
        key = f"param_label.{self.name}"
        return t(key, lang) if key in STRINGS else self.name

    def text(self, lang: str = "en") -> str:
        """The slider label, e.g. ``size (characters)``."""
        name = self.title(lang)
        word = self.unit.say(lang)
        return f"{name} ({word})" if word else name

    def widget_range(self, n_chars: int) -> tuple[Number, Number]:
        """Slider bounds on a document of ``n_chars``: inside the range every interface
        accepts, narrowed to what the document can use."""
        high = self.maximum
        if self.fits_document is not None and self.unit.span is not None:
            high = min(high, max(1, round(self.unit.span(n_chars) * self.fits_document)))
        return self.minimum, max(high, self.minimum)

    def check(self, value: object) -> Number:
        """``value`` if it is of the right kind and in range, else ValueError naming both."""
        if isinstance(value, bool) or not isinstance(value, int | float) or (
                self.kind == "int" and not isinstance(value, int)):
            key = "param.whole_number" if self.kind == "int" else "param.number"
            raise InputError(key=key, name=self.name, got=shown(value))
        if isinstance(value, float) and math.isnan(value):
            raise InputError(key="param.number", name=self.name, got=value)
        if value < self.minimum:
            raise InputError(key="param.at_least", name=self.name, limit=self.minimum,
                             got=shown(value))
        if value > self.maximum:
            raise InputError(key="param.at_most", name=self.name, limit=self.maximum,
                             got=shown(value))
        return float(value) if self.kind == "float" else value

    def parse(self, raw: str) -> Number:
        """A link's text value, checked; ValueError (short, naming it) if unusable."""
        value = _strict_number(raw.strip(), self.kind == "int")
        if value is None:
            raise InputError(key="param.not_a_number", name=self.name, got=shown(raw))
        return self.check(value)

    def clamp(self, value: object, low: Number | None = None, high: Number | None = None) -> Number:
        """``value`` moved into ``low..high`` (default: the whole range) with the right type;
        the default when it is no number at all. Never raises, whatever ``value`` is."""
        low = self.minimum if low is None else low
        high = self.maximum if high is None else high
        number = _as_number(value)
        if number is None:
            number = self.default
        number = min(max(number, low), high)
        if self.kind == "int":
            return round(number)
        return round(float(number), 2)


def _as_number(value: object) -> Number | None:
    """An int or a non-NaN float from a widget or link value, or None if there is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value  # kept exact: float(10**400) would overflow
    if isinstance(value, str):
        return _strict_number(value.strip(), whole=False)
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None
    return None if math.isnan(number) else number


def _strict_number(text: str, whole: bool) -> Number | None:
    """A number spelled in ASCII digits (``"12"``, ``"-0.5"``; a whole number is kept exact),
    else None: ``"²"``, ``"٣"``, ``"1_000"``, ``"nan"`` and ``"1e5"`` are no slider's value.
    A whole number of over MAX_INT_DIGITS digits is certainly out of range: infinite."""
    if WHOLE_NUMBER.fullmatch(text):
        if len(text) > MAX_INT_DIGITS:
            return -math.inf if text.startswith("-") else math.inf
        return int(text)
    return None if whole or not DECIMAL_NUMBER.fullmatch(text) else float(text)


ChunkFunction = Callable[[str, Mapping[str, Any], "Embedder | None"], ChunkingResult]


@dataclass(frozen=True)
class ChunkerSpec:
    """Everything ragviz knows about one chunker.

    ``size_axis``/``overlap_axis`` name the parameters a sweep varies: ``size_steps`` are
    candidate sizes (scaled to the document), ``overlap_steps`` overlaps, as shares of the
    size when both axes have the same unit, else as counts. ``alternatives`` are parameters
    of which at most one is set (the first is the default one). When size and overlap have
    the same unit the overlap must be smaller than the size.
    """

    name: str
    params: tuple[Param, ...]
    chunk: ChunkFunction
    needs_model: bool = False
    size_axis: str | None = None
    overlap_axis: str | None = None
    size_steps: tuple[int, ...] = ()
    overlap_steps: tuple[float, ...] = ()
    alternatives: tuple[str, ...] = ()
    help: str = ""
    order: int = 100  # position in menus and lists (registration order breaks ties)
    # Position in ``default_grid`` when no chunkers are named (0: not in the default sweep).
    sweep_position: int = 0
    # A peer library's chunker: the library's name ("LangChain"; "" for ragviz's own) and
    # the class or function it calls, so a tooltip shows the call to copy into a pipeline.
    library: str = ""
    call: str = ""
    # What tells two peers of one class apart in the picker (``tokenizer=model``).
    variant: str = ""

    @property
    def title(self) -> str:
        """The name in the chunker picker: a peer's library and class, so the picker reads
        grouped by library (``LangChain · CharacterTextSplitter``); ragviz's own name."""
        if not self.library:
            return self.name
        variant = f"({self.variant})" if self.variant else ""
        return f"{self.library} · {self.call.split('(')[0]}{variant}"

    def call_text(self, values: Mapping[str, object]) -> str:
        """The library call with these values, e.g. ``TokenChunker(chunk_size=512)``; a call
        written with its fixed arguments (``TokenChunker(tokenizer="character", …)``) gets
        the values in place of the ``…``."""
        inner = ", ".join(f"{name}={values.get(name)!r}" for name in self.names)
        if "…" in self.call:
            return self.call.replace("…", inner)
        return f"{self.call}({inner})" if self.call else ""

    def param(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        raise KeyError(f"the {self.name} chunker has no parameter {name!r}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def defaults(self) -> dict[str, Number | None]:
        """One default per parameter; of the alternatives only the first is set."""
        values: dict[str, Number | None] = {p.name: p.default for p in self.params}
        for name in self.alternatives[1:]:
            values[name] = None
        return values

    def overlap_is_share(self) -> bool:
        """True when the overlap counts in the size's unit (so it must stay below it)."""
        if self.size_axis is None or self.overlap_axis is None:
            return False
        return self.param(self.size_axis).unit == self.param(self.overlap_axis).unit

    def check(self, values: Mapping[str, object]) -> dict[str, Number | None]:
        """Every parameter checked against the spec; ValueError naming the first bad one."""
        chosen = [
            p.name for p in self.params
            if p.name in self.alternatives and values.get(p.name) is not None
        ]
        if len(chosen) > 1:
            shown = ", ".join(f"{n}={values[n]}" for n in chosen)
            raise InputError(key="param.not_both", names=" / ".join(chosen), given=shown)
        checked: dict[str, Number | None] = {}
        for param in self.params:
            value = values.get(param.name, param.default)
            if value is None and param.name in self.alternatives:
                checked[param.name] = None
                continue
            checked[param.name] = param.check(value)
        if self.overlap_is_share():
            size = checked[self.size_axis or ""]
            overlap = checked[self.overlap_axis or ""]
            if size is not None and overlap is not None and overlap >= size:
                raise InputError(key="param.overlap_under_size", overlap=self.overlap_axis,
                                 size=self.size_axis, limit=size, got=overlap)
        return checked


_SPECS: dict[str, ChunkerSpec] = {}
# Peer chunkers whose library is not installed: chunker name -> library ("LangChain").
_MISSING: dict[str, str] = {}
PEERS_EXTRA = "ragviz[peers]"  # the one install hint for every peer library


def register_missing(name: str, library: str) -> None:
    """Name a peer chunker whose library is not installed, so interfaces can say how to
    get it instead of not knowing the name."""
    if name not in _SPECS:
        _MISSING[name] = library


def missing_peers() -> dict[str, str]:
    """Peer chunkers not available here, with their library."""
    return dict(_MISSING)


def register(spec: ChunkerSpec) -> ChunkerSpec:
    """Add a chunker. A parameter name means one thing everywhere: same kind in every spec."""
    if spec.name in _SPECS and _SPECS[spec.name] is not spec:
        raise ValueError(f"a chunker named {spec.name!r} is already registered")
    for param in spec.params:
        for other in all_params():
            if other.name == param.name and other.kind != param.kind:
                raise ValueError(f"parameter {param.name!r} is {other.kind} in another chunker")
    _SPECS[spec.name] = spec
    ordered = sorted(_SPECS.values(), key=lambda s: s.order)  # stable: ties keep import order
    _SPECS.clear()
    _SPECS.update((s.name, s) for s in ordered)
    return spec


def get_spec(name: str) -> ChunkerSpec:
    """The spec of a registered chunker; ValueError naming the known ones otherwise."""
    try:
        return _SPECS[name]
    except (KeyError, TypeError):
        if isinstance(name, str) and name in _MISSING:
            raise InputError(key="param.peer_missing", name=name, library=_MISSING[name],
                             extra=PEERS_EXTRA) from None
        raise InputError(key="param.unknown_chunker", known=", ".join(_SPECS),
                         got=shown(name)) from None


def specs() -> tuple[ChunkerSpec, ...]:
    return tuple(_SPECS.values())


def chunker_names() -> tuple[str, ...]:
    return tuple(_SPECS)


def all_params() -> Iterator[Param]:
    for spec in _SPECS.values():
        yield from spec.params


def param_names() -> tuple[str, ...]:
    """Every parameter name of every chunker, in first-seen order (widget keys, CLI flags)."""
    return tuple(dict.fromkeys(p.name for p in all_params()))


def param_kind(name: str) -> Literal["int", "float"]:
    for param in all_params():
        if param.name == name:
            return param.kind
    raise KeyError(name)


# --- the configuration value ----------------------------------------------------------------

# The six fields every configuration carried before values were stored once. Files and links
# written then hold all six (most as placeholders); only reading them maps these names, and a
# name the chunker does not read is dropped there.
OLD_FIELD_NAMES = ("size", "overlap", "max_chars", "overlap_sentences", "threshold", "percentile")


@dataclass(frozen=True, init=False)
class ChunkerConfig:
    """A chunker name with its parameters, each stored once as sorted (name, value) pairs;
    hashable so sweeps and caches can key on it.

    Built as ``ChunkerConfig("fixed", size=200)``: the values given, the chunker's spec
    defaults for the rest (an alternative given, even as None, turns the others' defaults
    off); a name the chunker does not read is not kept.
    """

    chunker: str
    values: tuple[tuple[str, Number | None], ...]

    def __init__(
        self, chunker: str = "sentence",
        values: Mapping[str, Number | None] | None = None, **params: Number | None,
    ) -> None:
        given = {**(values or {}), **params}
        spec = _SPECS.get(chunker)
        if spec is not None:
            filled = spec.defaults()
            if any(name in given for name in spec.alternatives):
                filled.update(dict.fromkeys(spec.alternatives))
            filled.update({k: v for k, v in given.items() if k in filled})
            given = filled
        object.__setattr__(self, "chunker", chunker)
        object.__setattr__(self, "values", tuple(sorted(given.items())))

    @classmethod
    def create(cls, chunker: str, **values: Number | None) -> ChunkerConfig:
        """A configuration of a registered ``chunker`` (ValueError naming it otherwise)."""
        get_spec(chunker)
        return cls(chunker, values)

    def with_values(self, **values: Number | None) -> ChunkerConfig:
        """A copy with some parameters changed."""
        return ChunkerConfig(self.chunker, {**dict(self.values), **values})

    def get(self, name: str) -> Number | None:
        return dict(self.values).get(name)

    def params(self) -> dict[str, Any]:
        """The parameters this chunker reads, in its spec's order."""
        names = _SPECS[self.chunker].names if self.chunker in _SPECS else ()
        return {name: self.get(name) for name in names}

    def label(self) -> str:
        """Short human name, e.g. ``fixed(size=120, overlap=0)``."""
        shown = {k: v for k, v in self.params().items() if v is not None}
        inner = ", ".join(f"{k}={v}" for k, v in shown.items())
        return f"{self.chunker}({inner})"

    def to_dict(self) -> dict[str, Any]:
        """The chunker and the parameters it reads, once each."""
        return {"chunker": self.chunker, **self.params()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChunkerConfig:
        """The inverse of ``to_dict``; missing parameters take the spec's defaults, and an
        old file's fields this chunker does not read are dropped."""
        values = dict(data)
        chunker = values.pop("chunker", "sentence")
        spec = get_spec(chunker)
        unknown = set(values) - set(OLD_FIELD_NAMES) - set(spec.names)
        if unknown:
            raise InputError(key="param.unknown_settings" + (".one" if len(unknown) == 1 else ""),
                             names=", ".join(sorted(unknown)))
        return cls.create(chunker, **{k: v for k, v in values.items() if k in spec.names})


def check_config(config: ChunkerConfig) -> ChunkerConfig:
    """Raise ValueError (naming the parameter and its value) for settings no document can
    satisfy, without chunking anything or loading a model."""
    get_spec(config.chunker).check(config.params())
    return config


def make_chunks(
    document: str, config: ChunkerConfig, embedder: Embedder | None = None
) -> ChunkingResult:
    """Check ``config`` against its spec, then run the chunker it names."""
    spec = get_spec(config.chunker)
    values = spec.check(config.params())
    if spec.needs_model and embedder is None:
        raise InputError(key="param.needs_model", name=spec.name)
    return spec.chunk(document, values, embedder)


def run_checked(
    spec: ChunkerSpec, document: str, embedder: Embedder | None = None, **values: object
) -> ChunkingResult:
    """What a chunker module's public function does: check its arguments once, then run."""
    return spec.chunk(document, spec.check(values), embedder)


# --- sweeps -----------------------------------------------------------------------------------

def _scaled(candidates: tuple[int, ...], document_length: int, count: int = 4) -> list[int]:
    """The ``count`` largest candidates that still cut the document into two or more pieces."""
    fitting = [c for c in candidates if c <= max(candidates[0], document_length // 2)]
    return fitting[-count:]


def sweep_values(spec: ChunkerSpec, document_length: int) -> list[dict[str, Number]]:
    """The (size, overlap) settings a sweep tries for one chunker, sizes scaled to the
    document; ValueError for a chunker without sweep axes."""
    if spec.size_axis is None or spec.overlap_axis is None or not spec.size_steps:
        raise ValueError(f"default_grid has no sizes for the {spec.name!r} chunker")
    out: list[dict[str, Number]] = []
    for size in _scaled(spec.size_steps, document_length):
        for step in spec.overlap_steps:
            overlap = round(size * step) if spec.overlap_is_share() else round(step)
            out.append({spec.size_axis: size, spec.overlap_axis: overlap})
    return out


def default_sweep_chunkers() -> tuple[str, ...]:
    """The chunkers a sweep varies when none are named: each with a ``sweep_position``."""
    swept = sorted((s for s in _SPECS.values() if s.sweep_position), key=lambda s: s.sweep_position)
    return tuple(spec.name for spec in swept)


def sweepable(name: str) -> bool:
    """True when the chunker has size and overlap axes a sweep can vary."""
    spec = get_spec(name)
    return bool(spec.size_axis and spec.overlap_axis and spec.size_steps)


def default_grid(
    document_length: int, chunkers: tuple[str, ...] | list[str] | None = None
) -> list[ChunkerConfig]:
    """About 30 configurations: each chunker's sizes x overlaps from its spec (fixed and
    recursive: sizes x overlaps 0 and ~15 %; sentence: max_chars x 0, 1, 2 sentences).
    Without ``chunkers``, every chunker with a ``sweep_position``, in that order."""
    if chunkers is None:
        chunkers = default_sweep_chunkers()
    return [
        ChunkerConfig.create(name, **values)
        for name in chunkers
        for values in sweep_values(get_spec(name), document_length)
    ]


def axes(config: ChunkerConfig) -> tuple[Number, Number]:
    """A configuration's (size, overlap) on its chunker's sweep axes (0 where it has none)."""
    spec = get_spec(config.chunker)
    size = config.get(spec.size_axis) if spec.size_axis else None
    overlap = config.get(spec.overlap_axis) if spec.overlap_axis else None
    return size or 0, overlap or 0


def overlap_text(chunker: str, size: Number, overlap: Number, lang: str = "en") -> str:
    """A sweep row's overlap: a share of the size when it counts the same unit (so every
    size lines up in one row), else a count in its own unit ("1 sentence(s)")."""
    spec = get_spec(chunker)
    if spec.overlap_axis is None:
        return ""
    if spec.overlap_is_share():
        return f"{round(100 * overlap / max(size, 1))} %"
    return spec.param(spec.overlap_axis).unit.say(lang, overlap)
