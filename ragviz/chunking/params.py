"""Parameters several chunkers share, so their range and unit are written once (their
labels are the catalog's, by name: ``param_label.<name>`` in ``ragviz.i18n``)."""

from __future__ import annotations

from ragviz.chunking.registry import CHARACTERS, SENTENCES, Param, Unit
from ragviz.inputs.documents import MAX_DOCUMENT_CHARS

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
