"""The winner's words: when a chunk outranks the one holding the answer, the part of it that
made it win, quoted instead of its first words: its sentence closest to the question for a
dense scorer (the same model's cosine), the question's terms it holds for BM25 (tokenised
as the scorer tokenised them: its stopwords and stemmer)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace

from ragviz.chunking import Chunk
from ragviz.chunking.text import split_sentences
from ragviz.evaluation.results import QuestionOutcome
from ragviz.inputs.documents import shorten
from ragviz.retrieval.bm25 import LANGUAGES, Bm25Scorer, stemmer_for
from ragviz.retrieval.scorers import get_scorer

QUOTE = 100  # characters of the winning sentence quoted
_TOKEN = re.compile(r"(?u)\b\w\w+\b")  # bm25s's own token pattern


def with_winner_words(outcomes: Sequence[QuestionOutcome], chunks: Sequence[Chunk],
                      scorer: str) -> tuple[QuestionOutcome, ...]:
    """``outcomes`` with every outranked winner said by its winning words."""
    kind = get_scorer(scorer)
    out: list[QuestionOutcome] = []
    for outcome in outcomes:
        lost = outcome.diagnosis.outranked if outcome.diagnosis is not None else None
        if lost is None or outcome.diagnosis is None:
            out.append(outcome)
            continue
        text = chunks[lost.winner].text
        if isinstance(kind, Bm25Scorer):
            words = matched_terms(text, outcome.question.question, kind)
        else:
            words = best_sentence(text, outcome.question.question)
        if words:
            diagnosis = replace(outcome.diagnosis, outranked=replace(lost, winner_about=words))
            outcome = replace(outcome, diagnosis=diagnosis)
        out.append(outcome)
    return tuple(out)


def kept_winner_words(new: Sequence[QuestionOutcome], old: Sequence[QuestionOutcome]
                      ) -> tuple[QuestionOutcome, ...]:
    """After a rescore (same scores, another top_k or floor): the words already found for
    the same winner, so a slider step embeds nothing."""
    out: list[QuestionOutcome] = []
    for now, before in zip(new, old, strict=True):
        lost = now.diagnosis.outranked if now.diagnosis is not None else None
        was = before.diagnosis.outranked if before.diagnosis is not None else None
        if lost is not None and was is not None and was.winner == lost.winner \
                and now.diagnosis is not None:
            now = replace(now, diagnosis=replace(
                now.diagnosis, outranked=replace(lost, winner_about=was.winner_about)))
        out.append(now)
    return tuple(out)


def best_sentence(text: str, question: str) -> str:
    """The chunk's sentence that shares the most words with the question (case and accents
    folded; the first such sentence on a tie, the chunk's first sentence when none shares a
    word). Words, not the model: a slider or floor step must need no model (the precomputed
    sizes hold chunk vectors only), and the quote is there for a reader to see why it won."""
    pieces = [" ".join(text[a:b].split()) for a, b in split_sentences(text)]
    pieces = [p for p in pieces if p]
    if not pieces:
        return ""
    wanted = _folded_words(question)
    shared = [len(wanted & _folded_words(piece)) for piece in pieces]
    return shorten(pieces[shared.index(max(shared))], QUOTE)


def _folded_words(text: str) -> set[str]:
    """The text's words of two letters or more, lower-cased and without accents."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return set(_TOKEN.findall(plain))


def matched_terms(text: str, question: str, scorer: Bm25Scorer) -> str:
    """The chunk's words that are terms of the question, as BM25 matched them, in order."""
    import bm25s

    stemmer = stemmer_for(scorer.stemmer)
    stopwords = LANGUAGES[scorer.stopwords][1] if scorer.stopwords else None
    wanted = set(bm25s.tokenize([question], stopwords=stopwords, stemmer=stemmer,
                                return_ids=False, show_progress=False)[0])

    def term(word: str) -> str:
        lowered = word.lower()
        return str(stemmer.stemWord(lowered)) if stemmer is not None else lowered

    return ", ".join(dict.fromkeys(w for w in _TOKEN.findall(text) if term(w) in wanted))
