"""Files to text and corpus loading: real PDFs (Chromium), real DOCX (python-docx), zips."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragviz.errors import ConversionError
from ragviz.inputs import corpus as corpus_module
from ragviz.inputs.convert import SUPPORTED_SUFFIXES, convert
from ragviz.inputs.corpus import Corpus, load_files, load_paths
from tests.corpus_files import encrypt_pdf, make_docx, print_pdfs

REFUND_HTML = (
    "<html><body><h1>Refunds</h1><p>Annual plans get a full refund within 30 days of the "
    "first payment.</p><p>Monthly plans are not refunded.</p></body></html>"
)
IMAGE_ONLY_HTML = (
    '<html><body><svg width="400" height="300"><rect width="400" height="300" '
    'fill="#3366cc"/><circle cx="200" cy="150" r="80" fill="#ffcc00"/></svg></body></html>'
)


@pytest.fixture(scope="module")
def pdfs() -> dict[str, bytes]:
    return print_pdfs({"refund": REFUND_HTML, "image": IMAGE_ONLY_HTML})


def _kinds(corpus: Corpus) -> dict[str, str]:
    return {p.name: p.kind for p in corpus.problems}


def test_printed_pdf_converts_to_its_text(pdfs: dict[str, bytes]) -> None:
    text = convert("refund.pdf", pdfs["refund"]).text
    assert "Refunds" in text
    assert "within 30 days of the first payment" in text
    assert "<p>" not in text


def test_docx_keeps_paragraphs_and_tables_in_order() -> None:
    data = make_docx(["Shipping", "Orders ship within 2 days.", [["Zone", "Days"], ["EU", "3"]]])
    text = convert("shipping.docx", data).text
    assert text == "Shipping\n\nOrders ship within 2 days.\n\nZone | Days\n\nEU | 3"


def test_html_becomes_text_without_markup_or_scripts() -> None:
    html = (
        b"<html><head><style>p{color:red}</style><script>alert(1)</script></head><body>"
        b"<h2>Cancel</h2><p>Open <b>Settings</b> &amp; press Cancel.</p></body></html>"
    )
    text = convert("cancel.html", html).text
    assert "Cancel\n" in text
    assert "Open Settings & press Cancel." in text
    assert "alert" not in text
    assert "color" not in text


def test_text_and_markdown_keep_their_exact_text() -> None:
    assert convert("a.md", "# Title\n\nBody é.\n".encode()).text == "# Title\n\nBody é.\n"
    legacy = convert("b.txt", "Olá".encode("cp1252"))
    assert legacy.text == "Olá"
    assert str(legacy.notice) == "b.txt is not UTF-8; it was read as cp1252."


def _problem(name: str, data: bytes) -> ConversionError:
    with pytest.raises(ConversionError) as info:
        convert(name, data)
    return info.value


@pytest.mark.parametrize("algorithm", ["AES-256", "RC4-128"])
def test_encrypted_pdf_gets_one_sentence(pdfs: dict[str, bytes], algorithm: str) -> None:
    error = _problem("locked.pdf", encrypt_pdf(pdfs["refund"], "s3cret", algorithm))
    assert error.kind == "encrypted"
    assert str(error) == "locked.pdf could not be read: the PDF is encrypted with a password."


@pytest.mark.parametrize("algorithm", ["AES-256", "RC4-128"])
def test_pdf_locked_only_against_editing_still_reads(
    pdfs: dict[str, bytes], algorithm: str
) -> None:
    text = convert("restricted.pdf", encrypt_pdf(pdfs["refund"], "", algorithm)).text
    assert "within 30 days of the first payment" in text


def test_image_only_pdf_says_it_has_no_text_layer(pdfs: dict[str, bytes]) -> None:
    error = _problem("scan.pdf", pdfs["image"])
    assert error.kind == "no-text-layer"
    assert str(error) == (
        "scan.pdf could not be read: the PDF has no text layer (scanned or image-only; "
        "run OCR first)."
    )


def test_corrupt_pdf_is_named_damaged(pdfs: dict[str, bytes]) -> None:
    broken = pdfs["refund"][: len(pdfs["refund"]) // 2]  # the header survives, the xref does not
    error = _problem("broken.pdf", broken)
    assert error.kind == "corrupt"
    assert str(error) == "broken.pdf could not be read: the PDF is damaged or incomplete."


def test_text_named_pdf_is_a_mismatch() -> None:
    error = _problem("notes.pdf", b"Just some notes, not a PDF at all.\n")
    assert error.kind == "mismatch"
    assert str(error) == (
        "notes.pdf could not be read: it is named .pdf but its content is not a PDF."
    )


def test_pdf_named_txt_is_a_mismatch(pdfs: dict[str, bytes]) -> None:
    error = _problem("refund.txt", pdfs["refund"])
    assert error.kind == "mismatch"


def test_text_named_docx_is_a_mismatch() -> None:
    error = _problem("memo.docx", b"plain words")
    assert error.kind == "mismatch"
    assert "is named .docx but its content is not a Word document" in str(error)


def test_zip_named_docx_without_a_document_is_damaged() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("hello.txt", "hi")
    error = _problem("memo.docx", out.getvalue())
    assert error.kind == "corrupt"
    assert str(error) == "memo.docx could not be read: the Word document is damaged."


def test_unsupported_type_and_binary_text() -> None:
    said = str(_problem("logo.png", b"\x89PNG\r\n"))
    # the formats listed are the converters' (a new format joins the list by itself)
    assert said.startswith("logo.png could not be read: .png is not a supported type (use ")
    assert said.endswith(").") and ", or " in said
    assert all(suffix in said for suffix in SUPPORTED_SUFFIXES)
    binary = _problem("data.txt", b"abc\x00def")
    assert binary.kind == "not-text"
    assert str(binary) == "data.txt could not be read: looks binary, not text."


def test_bad_files_do_not_stop_the_others(pdfs: dict[str, bytes]) -> None:
    files = [
        ("refund.pdf", pdfs["refund"]),
        ("locked.pdf", encrypt_pdf(pdfs["refund"], "pw")),
        ("scan.pdf", pdfs["image"]),
        ("notes.pdf", b"not a pdf"),
        ("guide.docx", make_docx(["Guide", "Read me."])),
        ("page.html", b"<p>Hello <i>there</i></p>"),
    ]
    corpus = load_files(files)
    assert [s.name for s in corpus.sources] == ["refund.pdf", "guide.docx", "page.html"]
    assert _kinds(corpus) == {
        "locked.pdf": "encrypted", "scan.pdf": "no-text-layer", "notes.pdf": "mismatch"
    }
    assert all(str(p).startswith(p.name) for p in corpus.problems)
    assert corpus.source("page.html").text == "Hello there"


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out.getvalue()


def test_zip_expands_safely_and_skips_hidden_entries() -> None:
    archive = _zip({
        "kb/a.txt": b"Alpha article.",
        "kb/sub/b.md": b"# Beta\n\nBeta article.",
        "../evil.txt": b"escaped",
        "/etc/passwd.txt": b"absolute",
        "kb/.hidden.txt": b"hidden",
        "__MACOSX/kb/._a.txt": b"resource fork",
        "kb/empty/": b"",
    })
    corpus = load_files([("kb.zip", archive), ("c.txt", b"Gamma.")])
    assert [s.name for s in corpus.sources] == ["a.txt", "b.md", "c.txt"]
    assert corpus.source("b.md").text == "# Beta\n\nBeta article."
    assert _kinds(corpus) == {"kb.zip/../evil.txt": "unsafe-path",
                              "kb.zip//etc/passwd.txt": "unsafe-path"}
    assert str(corpus.problems[0]) == (
        "../evil.txt in kb.zip was skipped: its path points outside the archive."
    )


def test_zip_bomb_limits_refuse_the_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus_module, "MAX_ZIP_UNCOMPRESSED_BYTES", 10_000)
    bomb = _zip({"big.txt": b"a" * 50_000})
    assert len(bomb) < 1_000  # compresses well: only the uncompressed size tells
    corpus = load_files([("bomb.zip", bomb), ("ok.txt", b"fine")])
    assert [s.name for s in corpus.sources] == ["ok.txt"]
    assert str(corpus.problems[0]) == (
        "bomb.zip could not be read: it expands to 50,000 bytes and the limit is 10,000."
    )
    monkeypatch.setattr(corpus_module, "MAX_ZIP_MEMBERS", 3)
    many = _zip({f"f{i}.txt": b"x" for i in range(5)})
    assert str(load_files([("many.zip", many)]).problems[0]) == (
        "many.zip could not be read: it lists 5 entries and the limit is 3."
    )


def test_duplicate_names_are_told_apart_by_path(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "pt").mkdir()
    (tmp_path / "en" / "faq.md").write_text("English FAQ.", encoding="utf-8")
    (tmp_path / "pt" / "faq.md").write_text("FAQ em português.", encoding="utf-8")
    (tmp_path / "index.txt").write_text("Index.", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.txt").write_text("hidden", encoding="utf-8")
    corpus = load_paths([str(tmp_path)])
    assert [s.name for s in corpus.sources] == ["en/faq.md", "index.txt", "pt/faq.md"]
    uploads = load_files([("faq.md", b"one"), ("faq.md", b"two")])
    assert [s.name for s in uploads.sources] == ["faq.md", "faq (2).md"]


def test_paths_stdin_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("From a file.", encoding="utf-8")
    corpus = load_paths([str(tmp_path / "a.txt"), "-", str(tmp_path / "nope.txt")],
                        stdin=io.BytesIO(b"From stdin."))
    assert [(s.name, s.text) for s in corpus.sources] == [
        ("a.txt", "From a file."), ("stdin.txt", "From stdin.")
    ]
    assert corpus.problems[0].kind == "missing"
    assert str(corpus.problems[0]).endswith("nope.txt could not be read: no such file.")


def test_file_and_character_limits_name_themselves(monkeypatch: pytest.MonkeyPatch) -> None:
    assert corpus_module.MAX_CORPUS_CHARS >= 2_000_000
    assert corpus_module.MAX_CORPUS_FILES >= 200
    monkeypatch.setattr(corpus_module, "MAX_CORPUS_FILES", 2)
    files = [(f"f{i}.txt", b"text") for i in range(5)]
    corpus = load_files(files)
    assert len(corpus.sources) == 2
    assert str(corpus.problems[-1]) == "The corpus is limited to 2 files; 3 more were not loaded."
    monkeypatch.setattr(corpus_module, "MAX_CORPUS_FILES", 200)
    monkeypatch.setattr(corpus_module, "MAX_CORPUS_CHARS", 10)
    corpus = load_files([("a.txt", b"12345678"), ("b.txt", b"12345"), ("c.txt", b"1")])
    assert [s.name for s in corpus.sources] == ["a.txt"]
    assert str(corpus.problems[-1]) == (
        "The corpus is limited to 10 characters; b.txt and the files after it were not loaded."
    )


def test_real_corpus_limits_hold_two_million_characters() -> None:
    article = ("Refunds take 5 to 10 business days. " * 278)[:10_000].encode()
    corpus = load_files([(f"article{i:03}.txt", article) for i in range(200)])
    assert len(corpus.sources) == 200
    assert corpus.total_chars == 2_000_000
    assert corpus.problems == ()


def test_a_folder_of_all_five_formats_loads_in_sorted_order(
    tmp_path: Path, pdfs: dict[str, bytes]
) -> None:
    (tmp_path / "a_notes.txt").write_text("Plain notes about refunds.", encoding="utf-8")
    (tmp_path / "b_guide.md").write_text("# Guide\n\nMarkdown body.", encoding="utf-8")
    (tmp_path / "c_page.html").write_text("<h1>Page</h1><p>HTML body.</p>", encoding="utf-8")
    (tmp_path / "d_policy.pdf").write_bytes(pdfs["refund"])
    (tmp_path / "e_memo.docx").write_bytes(make_docx(["Memo", "Word body."]))
    corpus = load_paths([str(tmp_path)])
    assert corpus.problems == ()
    assert [s.name for s in corpus.sources] == [
        "a_notes.txt", "b_guide.md", "c_page.html", "d_policy.pdf", "e_memo.docx"
    ]
    for source in corpus.sources:
        data = (tmp_path / source.name).read_bytes()
        assert source.text == convert(source.name, data).text
    assert corpus.source("c_page.html").text == "Page\n\nHTML body."
    assert "within 30 days of the first payment" in corpus.source("d_policy.pdf").text
    assert corpus.source("e_memo.docx").text == "Memo\n\nWord body."


def _misnamed_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bom.txt", "Reembolso em 7 dias úteis.")
        archive.writestr("café.txt", "Frete grátis.")
    return buffer.getvalue().replace("café".encode(), b"caf\xc3(")


def test_a_name_flagged_utf8_that_is_not_skips_that_member_only() -> None:
    corpus = load_files([("a.zip", _misnamed_zip())])
    assert corpus.names == ("bom.txt",)
    assert [p.kind for p in corpus.problems] == ["bad-name"]


@given(st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), min_size=1, max_size=6))
@settings(max_examples=200, deadline=None)
def test_a_damaged_archive_with_a_misnamed_member_never_raises(
    changes: list[tuple[int, int]],
) -> None:
    """Bytes of the directory and its end record changed: no exception escapes the loader
    (the mending walks the directory itself, so it must stop at any bad offset)."""
    data = bytearray(_misnamed_zip())
    for offset, value in changes:
        data[len(data) - 1 - offset % len(data)] = value
    corpus = load_files([("a.zip", bytes(data))])
    assert all(len(str(problem)) < 300 for problem in corpus.problems)
