"""The app's uploader, the ``ragviz`` command and the Python API read documents through one
policy (``ragviz.inputs.reading.read_corpus``): the same file gives the same text, the same
refusal and the same sentences about the files it could not read or read with a caveat."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ragviz.api import sources as api_sources
from ragviz.cli import reading as cli_reading
from ragviz.errors import InputError, UserError
from ragviz.i18n import Message, message, render
from ragviz.inputs import reading
from ragviz.inputs.convert import CONVERTED_SUFFIXES, TEXT_SUFFIXES
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.documents import MAX_FILE_CHARS
from ragviz.inputs.reading import read_as, read_corpus, read_text_file, reads_alone
from ragviz.share.samples import find_sample, get_sample
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
    cli = cli_reading.read_paths([str(path)])
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
        cli_reading.read_paths([str(path)])
    assert cli.value.for_cli().startswith(f"The document {path} has")


def test_a_corpus_gets_the_same_sentences_in_the_app_and_the_cli(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [("politica.txt", LATIN), ("broken.pdf", b"not a pdf at all"),
             ("faq.md", b"# FAQ\n\nWifi: no.\n")]
    for name, data in files:
        (tmp_path / name).write_bytes(data)
    app = resolve_document("upload", "", "", files)
    cli_reading.read_paths([str(tmp_path / name) for name, _ in files])
    said = capsys.readouterr().err
    assert len(app.problems) == 2  # the PDF that is none, the file in another encoding
    for sentence in app.problems:
        assert sentence in said


def test_the_app_the_cli_and_the_api_read_a_file_through_the_one_policy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "politica.txt"
    path.write_bytes(LATIN)
    read: list[str] = []
    real = reading.read_text_file

    def spied(data: bytes, name: str | Message, shown: str | Message = "") -> object:
        read.append(render(name, "en"))
        return real(data, name, shown)

    monkeypatch.setattr(reading, "read_text_file", spied)
    app = resolve_document("upload", "", "", (path.name, LATIN))
    cli = cli_reading.read_paths([str(path)])
    api = api_sources.read_corpus(str(path))
    assert read == ["politica.txt"] * 3
    assert app.text == cli.sources[0].text == api.sources[0].text


def test_a_file_read_alone_carries_its_encoding_as_a_message(tmp_path: Path) -> None:
    path = tmp_path / "politica.txt"
    path.write_bytes(LATIN)
    corpus = read_corpus([str(path)])
    assert corpus.alone and corpus.names == ("politica.txt",)
    assert corpus.sources[0].notice == message("cli.not_utf8_guessed", name="politica.txt",
                                               encoding="Windows-1252")
    assert read_as(corpus.sources[0]) == "Windows-1252"
    assert read_as(read_corpus([str(path)], samples=find_sample).sources[0]) == "Windows-1252"


def test_standard_input_is_stdin_txt_and_its_note_says_standard_input(
        capsys: pytest.CaptureFixture[str]) -> None:
    corpus = read_corpus(["-"], stdin=io.BytesIO(LATIN), told=cli_reading.tell_corpus)
    assert corpus.names == ("stdin.txt",)
    assert capsys.readouterr().err == ("ragviz: note: standard input is not UTF-8; read it as "
                                       "Windows-1252; check accented letters\n")


def test_the_problems_are_told_before_a_corpus_with_nothing_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"not a pdf at all")
    told: list[Corpus] = []
    with pytest.raises(UserError) as refused:
        read_corpus([str(broken)], told=told.append)
    assert refused.value.key == "cli.nothing_read"
    assert [problem.name for problem in told[0].problems] == ["broken.pdf"]


def test_a_sample_is_read_by_the_lookup_the_caller_gives() -> None:
    assert read_corpus(["sample:help_center"], samples=find_sample) == \
        get_sample("help_center").corpus()
    seed = read_corpus(["sample:politica_reembolso"], samples=find_sample)
    assert seed.alone and seed.names == ("politica_reembolso.txt",)
    with pytest.raises(UserError) as unknown:
        read_corpus(["sample:no-such"], samples=find_sample)
    assert unknown.value.key == "cli.no_sample"
