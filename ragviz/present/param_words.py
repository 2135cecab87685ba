"""A chunker parameter's words in the reader's language: its unit ("characters", "1
sentence"), its name ("sobreposição") and its slider label ("size (characters)"), all the
catalog's by name, so a chunker's ``Param`` holds no sentence."""

from __future__ import annotations

from ragviz.chunking import get_spec
from ragviz.chunking.params import Number, Param, Unit
from ragviz.i18n import STRINGS, t


def unit_word(unit: Unit, lang: str, n: Number | None = None) -> str:
    """The unit's word (``unit.<name>``), or ``n`` with it in agreement (``unit_count``);
    "" (or the bare number) for a unit the catalog has no word for."""
    if n is None:
        return t(f"unit.{unit.name}", lang) if f"unit.{unit.name}" in STRINGS else ""
    key = f"unit_count.{unit.name}"
    return t(key, lang, n=n) if key in STRINGS else f"{n}"  # its plural form by n


def param_title(param: Param, lang: str = "en") -> str:
    """The parameter's name in ``lang`` ("sobreposição" for ``overlap_sentences``)."""
    key = f"param_label.{param.name}"
    return t(key, lang) if key in STRINGS else param.name


def param_label(param: Param, lang: str = "en") -> str:
    """The slider label, e.g. ``size (characters)``: the unit in the word a language keeps
    short enough for a slider's narrow column (``unit_label``), and none when the name
    already says it (``máx_caracteres``)."""
    name = param_title(param, lang)
    unit = unit_word(param.unit, lang)
    if unit and unit in name:
        return name
    short = f"unit_label.{param.unit.name}"
    word = t(short, lang) if short in STRINGS else unit
    return f"{name} ({word})" if word else name


def overlap_text(chunker: str, size: Number, overlap: Number, lang: str = "en") -> str:
    """A sweep row's overlap: a share of the size when it counts the same unit (so every
    size lines up in one row), else a count in its own unit ("1 sentence(s)")."""
    spec = get_spec(chunker)
    if spec.overlap_axis is None:
        return ""
    if spec.overlap_is_share():
        return f"{round(100 * overlap / max(size, 1))} %"
    return unit_word(spec.param(spec.overlap_axis).unit, lang, overlap)
