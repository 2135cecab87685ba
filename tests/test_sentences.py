"""Sentence boundaries: a table of cases per rule, Portuguese, English and CJK."""

from __future__ import annotations

import pytest

from ragviz.chunking.text import split_sentences


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # plain ends on . ! ? before a capital
        ("Olá mundo. Tudo bem? Sim!", ["Olá mundo.", "Tudo bem?", "Sim!"]),
        ("It works. Does it? Yes!", ["It works.", "Does it?", "Yes!"]),
        # abbreviations
        ("O Dr. Silva chegou. Saiu cedo.", ["O Dr. Silva chegou.", "Saiu cedo."]),
        ("A Sra. Lima e o Sr. Costa vieram.", ["A Sra. Lima e o Sr. Costa vieram."]),
        (
            "O Prof. Souza mora na Av. Paulista, nº. 100.",
            ["O Prof. Souza mora na Av. Paulista, nº. 100."],
        ),
        ("Use frutas, p. ex. Maçã e pera.", ["Use frutas, p. ex. Maçã e pera."]),
        ("Bring fruit, e.g. Apples. Then go.", ["Bring fruit, e.g. Apples.", "Then go."]),
        ("One thing, i.e. This one. Done.", ["One thing, i.e. This one.", "Done."]),
        ("Mr. Smith met Mrs. Jones. They talked.", ["Mr. Smith met Mrs. Jones.", "They talked."]),
        # decimals and money
        ("O valor é 3.5 vezes maior. Confira.", ["O valor é 3.5 vezes maior.", "Confira."]),
        ("Custa R$ 1.000,00 por mês. Pague já.", ["Custa R$ 1.000,00 por mês.", "Pague já."]),
        ("Version 2.0.1 is out. Update now.", ["Version 2.0.1 is out.", "Update now."]),
        # ellipses
        ("Bem... não sei. Talvez.", ["Bem... não sei.", "Talvez."]),
        ("Bem… não sei.", ["Bem… não sei."]),
        ("Wait... Then it happened.", ["Wait...", "Then it happened."]),
        # initials
        ("J. R. R. Tolkien escreveu. Muitos.", ["J. R. R. Tolkien escreveu.", "Muitos."]),
        # URLs, e-mails, file names
        (
            "Escreva para suporte@empresa.com.br hoje. Ou veja www.empresa.com agora.",
            ["Escreva para suporte@empresa.com.br hoje.", "Ou veja www.empresa.com agora."],
        ),
        ("Edit config.yaml first. Then run.", ["Edit config.yaml first.", "Then run."]),
        ("Enviada por e-mail. Pagamentos depois.", ["Enviada por e-mail.", "Pagamentos depois."]),
        # closing quotes and brackets stay with their sentence
        ('Ele disse "sim." Depois saiu.', ['Ele disse "sim."', "Depois saiu."]),
        ("(Isto é um aparte.) Aqui não.", ["(Isto é um aparte.)", "Aqui não."]),
        # CJK stops need no whitespace
        ("今天很好。明天呢？好！", ["今天很好。", "明天呢？", "好！"]),
        ("東京に行きます。大阪も。", ["東京に行きます。", "大阪も。"]),
        # paragraph breaks, list items and headings
        ("Primeiro parágrafo\n\nSegundo parágrafo", ["Primeiro parágrafo", "Segundo parágrafo"]),
        ("Line one\r\n\r\nLine two", ["Line one", "Line two"]),
        ("Itens:\n- um\n- dois\n1. três", ["Itens:", "- um", "- dois", "1. três"]),
        ("# Título\nTexto do corpo", ["# Título", "Texto do corpo"]),
        ("uma linha\nquebrada no meio", ["uma linha\nquebrada no meio"]),
        # lowercase after a stop continues the sentence
        ("Isto é o fim. e não acabou.", ["Isto é o fim. e não acabou."]),
    ],
)
def test_sentence_boundaries(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Rule chosen: "etc." before a capitalised word ends the sentence ...
        ("Frutas, legumes etc. Depois vem.", ["Frutas, legumes etc.", "Depois vem."]),
        # ... and mid-sentence (lowercase next) it does not.
        ("Frutas, legumes etc. e também carne.", ["Frutas, legumes etc. e também carne."]),
    ],
)
def test_etc_rule(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_spans_are_trimmed_slices() -> None:
    text = "  Uma frase.   Outra frase.\n\n  Mais uma.  "
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == ["Uma frase.", "Outra frase.", "Mais uma."]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"])
def test_blank_text_has_no_sentences(text: str) -> None:
    assert split_sentences(text) == []


def test_seed_sentences_match_the_article_regex(seed_doc: str) -> None:
    import re

    assert sentences(seed_doc) == re.split(r"(?<=[.!?])\s+", seed_doc.strip())


def test_long_document_is_handled() -> None:
    text = "Dr. Silva pagou R$ 1.000,00. Sim... e depois? " * 4000  # ~190,000 chars
    spans = split_sentences(text)
    assert len(spans) == 8000
