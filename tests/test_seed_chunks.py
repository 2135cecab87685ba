"""Seed compatibility: on the article's DOC, fixed and sentence chunks are the article's strings."""

from __future__ import annotations

import re

from ragviz.chunking import ChunkerConfig, make_chunks

SENTENCE_CHUNKS = [
    "Política de pagamentos. Todo pedido aprovado gera uma nota fiscal enviada por e-mail. "
    "Pagamentos por boleto compensam em até três dias úteis. Reembolso.",
    "Reembolso. Quando o cliente cancela a assinatura dentro do período de garantia, o valor "
    "pago é devolvido integralmente. O prazo para o estorno aparecer na fatura é de até 7 dias "
    "úteis após a confirmação do cancelamento.",
    "O prazo para o estorno aparecer na fatura é de até 7 dias úteis após a confirmação do "
    "cancelamento. Pedidos cancelados depois da garantia não geram devolução. Suporte.",
    "Suporte. O atendimento funciona de segunda a sexta, das 9h às 18h, pelo chat do painel.",
]

FIXED_PRINTED = {
    0: "Política de pagamentos. Todo pedido aprovado gera uma nota fiscal enviada por e-mail. "
    "Pagamentos por boleto compensam em",
    1: " até três dias úteis. Reembolso. Quando o cliente cancela a assinatura dentro do período "
    "de garantia, o valor pago é dev",
    2: "olvido integralmente. O prazo para o estorno aparecer na fatura é de até 7 dias úteis "
    "após a confirmação do cancelamento",
    4: "às 18h, pelo chat do painel.",
}


def chunk_por_frase(texto: str, max_chars: int = 220, overlap_frases: int = 1) -> list[str]:
    """The article's code, verbatim: the reference oracle."""
    frases = re.split(r"(?<=[.!?])\s+", texto.strip())
    chunks: list[str] = []
    atual: list[str] = []
    for frase in frases:
        if atual and len(" ".join([*atual, frase])) > max_chars:
            chunks.append(" ".join(atual))
            atual = atual[-overlap_frases:] if overlap_frases else []
        atual.append(frase)
    if atual:
        chunks.append(" ".join(atual))
    return chunks


def chunk_fixo(texto: str, chunk_size: int = 120) -> list[str]:
    """The article's fixed chunker, verbatim."""
    return [texto[i : i + chunk_size] for i in range(0, len(texto), chunk_size)]


def test_sentence_chunks_are_the_articles_printed_strings(seed_doc: str) -> None:
    assert [c.text for c in make_chunks(seed_doc,
        ChunkerConfig("sentence", max_chars=220, overlap_sentences=1)).chunks] == SENTENCE_CHUNKS


def test_article_oracle_prints_the_same_strings(seed_doc: str) -> None:
    assert chunk_por_frase(seed_doc) == SENTENCE_CHUNKS


def test_fixed_chunks_are_the_articles_windows(seed_doc: str) -> None:
    texts = [c.text for c in make_chunks(seed_doc,
                                         ChunkerConfig("fixed", size=120, overlap=0)).chunks]
    assert texts == chunk_fixo(seed_doc)
    assert len(texts) == 5


def test_fixed_chunks_match_the_printed_output(seed_doc: str) -> None:
    texts = [c.text for c in make_chunks(seed_doc,
                                         ChunkerConfig("fixed", size=120, overlap=0)).chunks]
    assert {i: texts[i] for i in FIXED_PRINTED} == FIXED_PRINTED


def test_the_deadline_is_cut_away_from_refund_by_fixed_chunks(seed_doc: str) -> None:
    texts = [c.text for c in make_chunks(seed_doc,
                                         ChunkerConfig("fixed", size=120, overlap=0)).chunks]
    holder = [t for t in texts if "Reembolso" in t]
    assert holder and all("7 dias" not in t for t in holder)


def test_sentence_chunks_put_refund_and_deadline_together(seed_doc: str) -> None:
    texts = [c.text for c in make_chunks(seed_doc,
        ChunkerConfig("sentence", max_chars=220, overlap_sentences=1)).chunks]
    assert any("Reembolso" in t and "7 dias úteis" in t for t in texts)
