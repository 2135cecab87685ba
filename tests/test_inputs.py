"""Limits and clear messages for documents, uploads and question files."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragviz.errors import InputError
from ragviz.inputs.documents import (
    MAX_DOCUMENT_CHARS,
    MAX_UPLOAD_BYTES,
    check_document,
    decode_upload,
)
from ragviz.inputs.questions import (
    LabelledQuestion,
    parse_bool,
    parse_questions_csv,
)
from ragviz.present.exports import questions_csv


@pytest.mark.parametrize("text", ["", "   ", "\n\t \r\n"])
def test_empty_documents_are_refused(text: str) -> None:
    with pytest.raises(InputError, match="empty"):
        check_document(text)


def test_oversize_document_names_the_limit() -> None:
    with pytest.raises(InputError, match=f"{MAX_DOCUMENT_CHARS:,}"):
        check_document("a" * (MAX_DOCUMENT_CHARS + 1))


def test_utf8_upload_is_not_a_guess() -> None:
    decoded = decode_upload("Reembolso em 7 dias úteis".encode())
    assert (decoded.text, decoded.encoding, decoded.guessed) == (
        "Reembolso em 7 dias úteis",
        "utf-8",
        False,
    )


def test_utf8_bom_is_dropped() -> None:
    assert decode_upload(b"\xef\xbb\xbfabc").text == "abc"


def test_latin1_upload_is_decoded_and_flagged_as_guessed() -> None:
    decoded = decode_upload("Política de devolução".encode("cp1252"))
    assert decoded.text == "Política de devolução"
    assert decoded.guessed


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", bytes(range(32)) * 20])
def test_binary_upload_is_refused(data: bytes) -> None:
    with pytest.raises(InputError, match="binary"):
        decode_upload(data, "image.png")


def test_oversize_upload_is_refused() -> None:
    with pytest.raises(InputError, match="limit"):
        decode_upload(b"a" * (MAX_UPLOAD_BYTES + 1))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("true", True),
        ("Yes", True),
        ("sim", True),
        ("1", True),
        ("false", False),
        ("no", False),
        ("não", False),
        ("0", False),
        ("", None),
        (None, None),
    ],
)
def test_parse_bool_accepts_the_documented_spellings(
    value: str | None, expected: bool | None
) -> None:
    assert parse_bool(value) is expected


def test_parse_bool_rejects_anything_else() -> None:
    with pytest.raises(ValueError, match="'maybe'"):
        parse_bool("maybe")


def test_questions_csv_round_trip() -> None:
    questions = [
        LabelledQuestion("Qual o prazo?", "7 dias úteis", True),
        LabelledQuestion("Senha do wifi?", "", False),
        LabelledQuestion('Com "aspas", vírgula?', "", None),
    ]
    assert parse_questions_csv(questions_csv(questions)) == questions


def test_answerable_defaults_to_true_when_an_answer_is_given() -> None:
    (question,) = parse_questions_csv("question,answer,answerable\nQual?,7 dias,\n")
    assert question.is_answerable is True


def test_question_without_answer_or_flag_is_unlabelled() -> None:
    (question,) = parse_questions_csv("question\nQual?\n")
    assert question.is_answerable is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("pergunta,resposta\nx,y\n", "line 1"),
        ("question,answer,answerable\nQual?,x,talvez\n", "line 2"),
        ("question,answer,answerable\nok,,true\n,x,true\n", "line 3: the question is empty"),
        ("question,answer,answerable\nQual?,x,true,extra\n", "line 2: 4 fields"),
        ("question,answer,answerable\nQual?,7 dias,false\n", "line 2: an unanswerable"),
        ('question,answer,answerable\n"Qual o prazo?,7 dias,true\nb,,\n', "line 2: a quote"),
        ('question,answer,answerable\n"' + "x" * 140_000 + "\n", "line 2: a field runs far"),
        ("question;answer;answerable\nQual?;x;true\n", "semicolons"),
        ("question,question,answer\na,b,c\n", "appears twice"),
    ],
)
def test_malformed_question_files_name_the_line(text: str, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment):
        parse_questions_csv(text)


def test_overlong_question_is_refused() -> None:
    with pytest.raises(InputError, match="line 2: the question has 501 characters"):
        parse_questions_csv("question\n" + "q" * 501 + "\n")


@pytest.mark.parametrize(
    ("call", "english", "portuguese"),
    [
        (lambda: check_document(" "), "The document is empty", "O documento está vazio"),
        (lambda: decode_upload(b"\x00\x01", "a.png"), "a.png looks binary", "a.png parece binário"),
    ],
)
def test_input_errors_speak_both_languages(call, english: str, portuguese: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError) as info:
        call()
    assert english in str(info.value) and english in info.value.localized("en")
    assert portuguese in info.value.localized("pt")


# --- UTF-16 (Notepad's and Excel's "Unicode") ---------------------------------------------------

_ANY_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=200)
_LATIN_TEXT = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_categories=("Cc",)),
    min_size=2, max_size=200,
)


@settings(max_examples=60, deadline=None)
@given(_ANY_TEXT, st.sampled_from(["utf-16-le", "utf-16-be"]))
def test_utf16_with_a_bom_reads_back_exactly(text: str, encoding: str) -> None:
    decoded = decode_upload(("\ufeff" + text).encode(encoding), "u.txt")
    assert (decoded.text, decoded.encoding, decoded.guessed) == (text, encoding, False)


@settings(max_examples=60, deadline=None)
@given(_LATIN_TEXT, st.sampled_from(["utf-16-le", "utf-16-be"]))
def test_bomless_utf16_is_recognised_by_its_nul_bytes(text: str, encoding: str) -> None:
    decoded = decode_upload(text.encode(encoding), "u.txt")
    assert (decoded.text, decoded.encoding, decoded.guessed) == (text, encoding, True)
    assert decoded.notice == {"utf-16-le": "UTF-16 LE", "utf-16-be": "UTF-16 BE"}[encoding]


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=64, max_size=2000))
def test_binary_with_nul_bytes_is_never_taken_for_text(data: bytes) -> None:
    """Random bytes with NULs on both sides of the pairs (images, archives) stay binary."""
    data = b"\x00\x00" + data
    try:
        decoded = decode_upload(data, "x.bin")
    except InputError as error:
        assert "looks binary" in str(error)
    else:  # only possible when the bytes really are UTF-16 text without controls
        assert decoded.encoding.startswith("utf-16")
        assert not any(ord(c) < 32 and c not in "\t\n\f\r" for c in decoded.text)
