"""The highlighted document: escaping, chunk colours, overlap, cut marks, truncation."""

from __future__ import annotations

import re

import pytest

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.chunking.base import Chunk, make_chunk
from ragviz.present.render import boundary_kind, cut_positions, highlight_document, legend


def _fixed(doc: str, size: int = 120, overlap: int = 0) -> tuple[Chunk, ...]:
    return make_chunks(doc, ChunkerConfig("fixed", size=size, overlap=overlap)).chunks


def test_script_in_document_comes_out_escaped() -> None:
    doc = 'Intro. <script>alert("x")</script> & <b>bold</b> end.'
    html = highlight_document(doc, _fixed(doc, 20))
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "<b>bold" not in html


def test_every_character_of_the_document_is_drawn_once(seed_doc: str) -> None:
    html = highlight_document(seed_doc, _fixed(seed_doc), cut_marks=False)
    body = html.split('<div class="rv-doc">', 1)[1]
    text = re.sub(r'<span class="rv-badge"[^>]*>#\d+</span>', "", body)
    text = re.sub(r"<[^>]+>", "", text)
    assert text == seed_doc


def test_chunks_alternate_two_colours(seed_doc: str) -> None:
    html = highlight_document(seed_doc, _fixed(seed_doc))
    assert html.count('class="rv-c0"') == 3
    assert html.count('class="rv-c1"') == 2
    assert "rv-ov" not in html.split("</style>", 1)[1]


def test_overlap_is_striped_and_holds_the_repeated_sentence(seed_doc: str) -> None:
    chunks = make_chunks(seed_doc, ChunkerConfig("sentence", max_chars=220)).chunks
    html = highlight_document(seed_doc, chunks)
    overlaps = re.findall(r'<span class="rv-ov">([^<]*)</span>', html)
    assert any("O prazo para o estorno" in text for text in overlaps)


def test_fixed_chunks_mark_the_word_cut_in_devolvido(seed_doc: str) -> None:
    chunks = _fixed(seed_doc)
    cuts = cut_positions(seed_doc, chunks)
    assert cuts[240] == "word"  # "é dev|olvido"
    assert cuts[360] == "sentence"  # "cancelamento|. Pedidos"
    html = highlight_document(seed_doc, chunks)
    assert html.count('title="boundary cuts a word"') == 1


def test_sentence_chunks_cut_nothing(seed_doc: str) -> None:
    chunks = make_chunks(seed_doc, ChunkerConfig("sentence", max_chars=220)).chunks
    assert cut_positions(seed_doc, chunks) == {}
    assert "rv-cut" not in highlight_document(seed_doc, chunks).split("</style>", 1)[1]


@pytest.mark.parametrize(
    ("doc", "position", "kind"),
    [
        ("Um dois. Três quatro.", 5, "word"),
        ("Um dois. Três quatro.", 3, "sentence"),
        ("Um dois. Três quatro.", 8, None),
        ("Um dois. Três quatro.", 9, None),
        ("Custa R$ 1.000,00 hoje.", 11, "sentence"),
        ("Título\n\nTexto aqui.", 6, None),
        ("abc", 0, None),
    ],
)
def test_boundary_kind(doc: str, position: int, kind: str | None) -> None:
    assert boundary_kind(doc, position) == kind


def test_badges_carry_index_chars_and_tokens(seed_doc: str) -> None:
    chunks = _fixed(seed_doc)
    tokens = [26, 28, 27, 28, 10]
    html = highlight_document(seed_doc, chunks, tokens=tokens)
    assert 'title="chunk #0 · 120 chars · 26 tokens">#0</span>' in html
    assert 'title="chunk #4 · 28 chars · 10 tokens">#4</span>' in html


def test_truncated_tail_is_greyed(seed_doc: str) -> None:
    chunks = _fixed(seed_doc)
    truncation: list[int | None] = [None, 200, None, None, None]
    html = highlight_document(seed_doc, chunks, truncation)
    greyed = re.findall(r'<span class="rv-c1 rv-tr">([^<]*)</span>', html)
    assert "".join(greyed) == seed_doc[200:240]


def test_newlines_are_kept_and_shown_pre_wrapped() -> None:
    doc = "Line one.\n\nLine two."
    chunks = (make_chunk(doc, 0, 0, 9), make_chunk(doc, 1, 11, 20))
    html = highlight_document(doc, chunks)
    assert "\n\n" in html
    assert "white-space:pre-wrap" in html


def test_legend_names_every_style() -> None:
    html = legend("pt")
    for css in ("rv-c0", "rv-c1", "rv-ov", "rv-tr", "rv-cut"):
        assert css in html
    assert "sobreposição" in html
