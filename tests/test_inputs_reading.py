"""The app's uploader and the ``ragviz`` command read documents through one core reader
(``ragviz.inputs.reading``): the same file gives the same text, the same refusal and the
same sentences about the files it could not read or read with a caveat."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.cli import reading as cli_reading
from ragviz.errors import InputError
from ragviz.inputs.convert import CONVERTED_SUFFIXES, TEXT_SUFFIXES
from ragviz.inputs.documents import MAX_FILE_CHARS
from ragviz.inputs.reading import read_text_file, reads_alone
from ragviz_app.app_state import resolve_document

LATIN = "Reembolso em até 7 dias úteis após a devolução.\n".encode("cp1252")


@pytest.mark.parametrize("suffix", [*TEXT_SUFFIXES, ".csv", ""])
def test_a_text_file_or_an_unknown_type_is_read_alone(suffix: str) -> None:
    assert reads_alone(f"notes{suffix}")


@pytest.mark.parametrize("suffix", CONVERTED_SUFFIXES)
def test_a_converted_type_goes_through_the_corpus_loader(suffix: str) -> None:
    assert not reads_alone(f"notes{suffix}")


def test_one_text_file_reads_the_same_in_the_app_and_the_cli(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "politica.txt"
    path.write_bytes(LATIN)
    app = resolve_document("upload", "", "", (path.name, LATIN))
    cli = cli_reading._read_corpus([str(path)])
    assert app.text == cli.sources[0].text == LATIN.decode("cp1252")
    assert app.notice is not None and app.notice in capsys.readouterr().err


def test_a_file_too_long_is_refused_in_each_ones_words(tmp_path: Path) -> None:
    data = b"a" * (MAX_FILE_CHARS + 1)
    path = tmp_path / "long.txt"
    path.write_bytes(data)
    with pytest.raises(InputError) as read:
        read_text_file(data, path.name, str(path))
    assert read.value.key == "input.long_document"
    app = resolve_document("upload", "", "", (path.name, data))
    assert app.error is not None and app.error.startswith("The file long.txt has")
    with pytest.raises(InputError) as cli:
        cli_reading._read_corpus([str(path)])
    assert cli.value.for_cli().startswith(f"The document {path} has")


def test_a_corpus_gets_the_same_sentences_in_the_app_and_the_cli(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [("politica.txt", LATIN), ("broken.pdf", b"not a pdf at all"),
             ("faq.md", b"# FAQ\n\nWifi: no.\n")]
    for name, data in files:
        (tmp_path / name).write_bytes(data)
    app = resolve_document("upload", "", "", files)
    cli_reading._read_corpus([str(tmp_path / name) for name, _ in files])
    said = capsys.readouterr().err
    assert len(app.problems) == 2  # the PDF that is none, the file in another encoding
    for sentence in app.problems:
        assert sentence in said
