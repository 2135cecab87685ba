"""Chunker parameters: what a parameter counts (``Unit``), its kind, range and default
(``Param``: checking, parsing a link's text, clamping a slider's value, the slider's range on
a document), and the parameters several chunkers share, so their range and unit are written
once (their labels are the catalog's, by name: ``param_label.<name>`` in ``ragviz.i18n``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ragviz.errors import InputError
from ragviz.inputs.documents import MAX_DOCUMENT_CHARS, shown
from ragviz.inputs.limits import DECIMAL_NUMBER, MAX_INT_DIGITS, WHOLE_NUMBER

Number = int | float


@dataclass(frozen=True)
class Unit:
    """What a parameter counts. Its words are the catalog's, looked up by name
    (``ragviz.present.param_words``): ``unit.<name>`` goes into slider labels ("size
    (characters)"), ``unit_count.<name>`` (with ``.one``) into chart rows ("1 sentence"); a
    unit without them says no word."""

    name: str
    # How far a slider in this unit usefully reaches on a document of n characters.
    span: Callable[[int], int] | None = None


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
    catalog's ``param_label.<name>`` (the name itself when the catalog has none), said by
    ``ragviz.present.param_words``.

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

WINDOW_STEPS = (80, 120, 160, 240, 320, 480, 640, 960)  # sweep sizes of window chunkers
PACKED_STEPS = (120, 160, 220, 320, 480, 640, 960, 1280)  # sweep max_chars of packers
MAX_OVERLAP_UNITS = 10  # overlap counted in sentences or paragraphs


def size_param(default: int, unit: Unit = CHARACTERS) -> Param:
    """A window's ``size``; its slider reaches the whole document span."""
    return Param("size", "int", unit, 1, MAX_DOCUMENT_CHARS, default, fits_document=1.0)


def overlap_param(default: int, unit: Unit = CHARACTERS) -> Param:
    """A window's ``overlap`` in the size's unit; its slider reaches half the span."""
    return Param("overlap", "int", unit, 0, MAX_DOCUMENT_CHARS, default, fits_document=0.5)


def max_chars_param(default: int) -> Param:
    """``max_chars`` of the chunkers that pack whole units up to a length."""
    return Param("max_chars", "int", CHARACTERS, 1, MAX_DOCUMENT_CHARS, default,
                 fits_document=1.0)


def overlap_units_param(name: str, default: int, unit: Unit = SENTENCES) -> Param:
    """An overlap counted in whole units (sentences, paragraphs)."""
    return Param(name, "int", unit, 0, MAX_OVERLAP_UNITS, default)
