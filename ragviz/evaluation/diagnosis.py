"""Why one labelled question went right or wrong, as labels with the facts behind them
(chunks, scores, ranks, margins); ``ragviz.present.presentation`` says them in words.

The labels answer the support engineer's question "why did the assistant answer that?":
the answer was cut between chunks, read past the model's token limit, beaten by another
chunk of the same file or of another file, or under the floor; or an unanswerable
question got context anyway. On a production index, copies of one passage may also take
several places of the context sent (``duplicate-crowding``): a note added after the other labels.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from ragviz.chunking.base import Chunk
from ragviz.evaluation.answers import AnswerSpan, locate_in_corpus
from ragviz.evaluation.chunk_table import ChunkTable, Located
from ragviz.evaluation.excerpts import (
    Excerpt,
    locate_reference,
    question_excerpts,
    source_for,
    stripped,
)
from ragviz.evaluation.reached import Reach, reach, share_held
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.decision import Decision

OK = "ok"
ANSWER_SPLIT = "answer-split"
ANSWER_TRUNCATED = "answer-truncated"
OUTRANKED = "outranked"
OUTRANKED_BY_OTHER_DOCUMENT = "outranked-by-other-document"
BELOW_FLOOR = "below-floor"
FALSE_CONTEXT = "false-context"
ANSWER_NOT_IN_DOCUMENT = "answer-not-in-document"
DUPLICATE_CROWDING = "duplicate-crowding"
RERANKED_OUT = "reranked-out"
ANN_MISS = "ann-miss"  # the index's approximate search left out a true top_k chunk

LABELS: tuple[str, ...] = (
    OK,
    ANSWER_SPLIT,
    ANSWER_TRUNCATED,
    OUTRANKED,
    OUTRANKED_BY_OTHER_DOCUMENT,
    BELOW_FLOOR,
    FALSE_CONTEXT,
    ANSWER_NOT_IN_DOCUMENT,
    DUPLICATE_CROWDING,
    RERANKED_OUT,
    ANN_MISS,
)

_ABOUT_WORDS = 8

# What kind of question a diagnosis is about: it picks the sentence for ``ok``.
ANSWERABLE = "answerable"
UNANSWERABLE = "unanswerable"
NO_EXPECTED_ANSWER = "no-expected-answer"


@dataclass(frozen=True)
class Outranked:
    """The best chunk holding the answer lost to ``winner``: where it ranked and by how much;
    ``source`` is the file holding the answer, ``winner_source`` the winner's file."""

    chunk: int
    rank: int
    score: float
    winner: int
    winner_score: float
    winner_about: str  # heading path or first words of the winner
    source: str = ""
    winner_source: str = ""
    winner_share: float = 0.0  # the share of the missing excerpt the winner holds itself
    part: bool = False  # ``chunk`` holds only the part of the excerpt left out (answer-split)
    first_rank: int | None = None  # ``chunk``'s rank before a reranker (None: none)

    @property
    def gap(self) -> float:
        return self.winner_score - self.score

    @property
    def other_document(self) -> bool:
        """The winner comes from another file than the one holding the answer."""
        return self.winner_source != self.source

    def to_dict(self) -> dict[str, Any]:
        return {"chunk": self.chunk, "rank": self.rank, "score": self.score,
                "winner": self.winner, "winner_score": self.winner_score,
                "winner_about": self.winner_about, "gap": self.gap,
                "source": self.source, "winner_source": self.winner_source,
                "winner_share": self.winner_share, "part": self.part,
                **({} if self.first_rank is None else {"first_rank": self.first_rank})}


@dataclass(frozen=True)
class AnnMiss:
    """The database's own top_k left out ``chunk``, which exact search ranks ``rank``; the
    index's recall@k over the questions and the settings that govern it (``ann-miss``)."""

    chunk: int
    rank: int
    recall: float = math.nan  # the diagnosis knows the chunk; the exact check adds these two
    settings: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"chunk": self.chunk, "exact_rank": self.rank, "recall_at_k": self.recall,
                "settings": self.settings}


@dataclass(frozen=True)
class Diagnosis:
    """Labels (``labels[0]`` is the primary one; ``ok`` is followed by nothing but notes
    that do not make an answer wrong: ``duplicate-crowding``, and in database mode
    ``ann-miss`` when the index lost a chunk of the top_k the answer did not need; an
    ``ann-miss`` that lost the answer is the primary label) with the facts
    they rest on: which chunks, which scores, ranks and margins. No sentences: those are
    made by ``ragviz.present.presentation`` in the reader's language.

    ``answer_rank`` is the 1-based rank of the best chunk holding the whole answer, floor
    ignored (None when no chunk holds it, or no such chunk was scored: a user's retriever
    that did not return it, a reranker whose depth did not reach it); it is what hit@k and
    MRR are computed from (None: a miss, reciprocal rank 0).
    """

    labels: tuple[str, ...]
    answer_span: AnswerSpan | None
    holding_chunks: tuple[int, ...]
    answer_rank: int | None
    kind: str = ANSWERABLE  # ANSWERABLE, UNANSWERABLE or NO_EXPECTED_ANSWER
    answer: str = ""  # as the document writes it (as given when it is not in the document)
    best_chunk: int | None = None
    best_score: float | None = None
    floor: float = 0.0
    split_between: tuple[int, ...] = ()  # chunks the answer straddles (answer-split)
    outranked: Outranked | None = None
    files: int = 1  # how many files the corpus has (the answer was looked for in each)
    best_source: str = ""  # the file of best_chunk
    answer_score: float | None = None  # the score of the best chunk holding the answer
    top_k: int = 0  # the top_k the decision used
    crowding: tuple[int, ...] = ()  # copies of one passage sharing the context (duplicate-crowding)
    first_rank: int | None = None  # the answer's chunk's rank before a reranker (None: none)
    floored: bool = True  # False: no floor was set (the floor is the scale's bottom)
    ann_miss: AnnMiss | None = None  # the index's approximate search missed a top_k chunk
    excerpts: int = 0  # how many expected excerpts the context had to hold
    in_context: tuple[tuple[int, int], ...] = ()  # (chunk, rank) of the chunks sent holding them
    missing_excerpt: int | None = None  # the first excerpt not wholly sent (1-based)
    sent_share: float | None = None  # the share of that excerpt the context holds
    part_sent: str = ""  # that excerpt's characters in the context ("" for none)
    part_missing: str = ""  # and the ones left out

    @property
    def missing_score(self) -> float | None:
        """The score of the chunk that should have brought what is missing: the outranked
        chunk's when there is one (with several excerpts, not the best answer chunk's)."""
        return self.outranked.score if self.outranked is not None else self.answer_score

    @property
    def missing_rank(self) -> int | None:
        return self.outranked.rank if self.outranked is not None else self.answer_rank

    @property
    def floor_gap(self) -> float | None:
        """How far that chunk scores under the floor (None: not under it)."""
        score = self.missing_score
        if score is None or score >= self.floor:
            return None
        return self.floor - score

    @property
    def primary(self) -> str:
        return self.labels[0]

    @property
    def ok(self) -> bool:
        return self.labels[0] == OK

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "kind": self.kind,
            "answer": self.answer,
            "answer_span": None if self.answer_span is None else asdict(self.answer_span),
            "holding_chunks": list(self.holding_chunks),
            "answer_rank": self.answer_rank,
            "best_chunk": self.best_chunk,
            "best_score": self.best_score,
            "floor": self.floor,
            "split_between": list(self.split_between),
            "outranked": None if self.outranked is None else self.outranked.to_dict(),
            "files": self.files,
            "best_source": self.best_source,
            "answer_score": self.answer_score,
            "top_k": self.top_k,
            "duplicate_crowding": list(self.crowding),
            **({} if self.first_rank is None else {"first_rank": self.first_rank}),
            **({} if self.ann_miss is None else {"ann_miss": self.ann_miss.to_dict()}),
            "excerpts": self.excerpts,
            "in_context": [{"chunk": c, "rank": r} for c, r in self.in_context],
            "missing_excerpt": self.missing_excerpt,
            "sent_share": self.sent_share,
            "part_sent": self.part_sent,
            "part_missing": self.part_missing,
        }


def about(chunk: Chunk) -> str:
    """What a chunk is about, in a few words: its heading path, else its first words."""
    if chunk.heading_path:
        return " > ".join(chunk.heading_path)
    words = chunk.text.split()
    excerpt = " ".join(words[:_ABOUT_WORDS])
    return excerpt + ("…" if len(words) > _ABOUT_WORDS else "")


def diagnose(
    document: str | Corpus,
    chunks: Sequence[Chunk],
    decision: Decision,
    question: LabelledQuestion,
    truncation: Sequence[int | None],
    table: ChunkTable | None = None,
    context: Sequence[int] | None = None,
) -> Diagnosis | None:
    """The labels of one question from the context sent, or None when it carries no label:
    the one function the CLI, the app, the report and ``explain`` label a question with.

    ``document`` is the corpus the chunks come from (a plain text is a one-source corpus
    named ""). ``truncation[i]`` is the offset in chunk ``i``'s source where the model
    stops reading it (None when it reads all of it). ``table`` is the chunks' offset table
    (``ChunkTable.of(chunks)`` when left out). ``context`` is the chunks sent to the model:
    the hits and what ``--expand`` added (``with_neighbours``); the hits when left out.
    """
    answerable = question.is_answerable
    if answerable is None:
        return None
    corpus = as_corpus(document)
    table = table or ChunkTable.of(chunks)
    best = _best(decision, table, len(corpus.sources))
    if not answerable:
        label = OK if decision.refused else FALSE_CONTEXT
        return Diagnosis((label,), None, (), None, UNANSWERABLE, **best)
    if not question.expected:
        label = BELOW_FLOOR if decision.refused else OK
        return Diagnosis((label,), None, (), None, NO_EXPECTED_ANSWER, **best)
    spans = _pinned(corpus, question) or locate_in_corpus(corpus, question.expected)
    sent = tuple(h.index for h in decision.hits) if context is None else tuple(context)
    return _diagnose_answerable(corpus, table, decision, question, spans, truncation, sent)


def _pinned(corpus: Corpus, question: LabelledQuestion) -> tuple[AnswerSpan, ...]:
    """Every labelled excerpt where its file and offsets put it (a labelled excerpt is that
    place, not the first occurrence of its words; one without offsets is looked for by its
    text), stripped as ``question.expected`` says it; () when the question gives an answer
    of its own or no excerpt is in the corpus (then its text is looked for, as an answer's
    is). A chunk holding any one is an answer's chunk (the rank hit@k and MRR read); the
    labels ask the context for all of them (``question_excerpts``)."""
    if question.answer.strip() or not question.references:
        return ()
    spans: list[AnswerSpan] = []
    for reference in question.references:
        if not reference.content.strip():
            continue
        if reference.start is None or reference.end is None:
            spans += _by_text(corpus, reference.content, reference.source)
            continue
        found = locate_reference(corpus, reference)
        if isinstance(found, Excerpt):
            trimmed = stripped(corpus, found)
            spans.append(AnswerSpan(trimmed.start, trimmed.end, exact=True,
                                    source=found.source))
    return tuple(spans)


def _by_text(corpus: Corpus, content: str, source: str) -> tuple[AnswerSpan, ...]:
    """An excerpt without offsets: its words' first place in its file, or in every file
    that has them when it names none."""
    name = source_for(corpus, source) if source else None
    return tuple(s for s in locate_in_corpus(corpus, content.strip())
                 if name is None or s.source == name)


def _best(decision: Decision, table: ChunkTable, files: int) -> dict[str, Any]:
    best = decision.best_index
    source = table.source_of(best) if best is not None else ""
    return {
        "best_chunk": best,
        "best_score": decision.best_score if best is not None else None,
        "floor": decision.floor,
        "floored": decision.floored,
        "top_k": decision.top_k,
        "best_source": source,
        "files": files,
    }


def _diagnose_answerable(
    corpus: Corpus,
    table: ChunkTable,
    decision: Decision,
    question: LabelledQuestion,
    spans: Sequence[AnswerSpan],
    truncation: Sequence[int | None],
    context: Sequence[int],
) -> Diagnosis:
    """``spans`` are the places that answer (the excerpts, or the answer's words in several
    files): the best-ranked chunk holding one whole gives the rank hit@k and MRR read. The
    labels come from the context: ``ok`` when every expected excerpt is in it, else the
    first excerpt left out (in part or whole) and why."""
    best = _best(decision, table, len(corpus.sources))
    span = _answer_span(table, decision, spans, context)
    if span is None:
        missing = (ANSWER_NOT_IN_DOCUMENT, BELOW_FLOOR) if decision.refused \
            else (ANSWER_NOT_IN_DOCUMENT,)
        return Diagnosis(missing, None, (), None, ANSWERABLE, question.expected, **best)
    holding = tuple(sorted({i for s in spans for i in table.holding(s)}))
    rank, top_holding = min(((decision.rank_of(i), i) for i in holding if decision.scored(i)),
                            default=(None, -1))  # an unscored chunk was never ranked: no rank
    expected = question_excerpts(corpus, question, span) or (_excerpt(span),)
    reaches = reach(expected, context, table)
    facts: dict[str, Any] = {
        **best, "answer_score": None if rank is None else decision.score(top_holding),
        "excerpts": len(expected), "in_context": _in_context(reaches, context, table, decision)}
    gone = next((n for n, r in enumerate(reaches) if not r.whole), None)
    if gone is None:
        return Diagnosis((OK,), span, holding, rank, ANSWERABLE, _text(corpus, span), **facts)
    lost = reaches[gone]
    labels, split, outranked, searched_out = _why_missing(table, decision, lost, truncation)
    if decision.refused and BELOW_FLOOR not in labels:
        labels.append(BELOW_FLOOR)
    return Diagnosis(tuple(labels), span, holding, rank, ANSWERABLE,
                     _text(corpus, lost.excerpt), **facts, split_between=split,
                     outranked=outranked, ann_miss=searched_out,
                     missing_excerpt=gone + 1, sent_share=lost.share,
                     part_sent=_pieces(corpus, lost.excerpt.source, lost.sent),
                     part_missing=_pieces(corpus, lost.excerpt.source, lost.missing))


def _why_missing(table: ChunkTable, decision: Decision, lost: Reach,
                 truncation: Sequence[int | None]
                 ) -> tuple[list[str], tuple[int, ...], Outranked | None, AnnMiss | None]:
    """Why part of an excerpt stayed out of the context: no chunk holds it whole
    (``answer-split``, then what kept the left-out part's best chunk out), its chunks end
    their vector before it (``answer-truncated``), or its best chunk ranked under the
    top_k or scored under the floor."""
    excerpt = lost.excerpt
    holding = table.holding(excerpt)
    if not holding:
        touching = table.touching(excerpt) or (0,)
        parts = {i for piece in lost.missing
                 for i in table.touching(Excerpt(excerpt.source, *piece))}
        rank, chunk = min((decision.rank_of(i), i) for i in parts or set(touching))
        outranked = _outranked(table, decision, rank, chunk, excerpt, part=True) \
            if rank > 1 or not decision.scored(chunk) else None
        why = _rank_labels(decision, rank, chunk, outranked)
        # the index lost a part the scores would have sent: the search, not the chunking
        labels = [*why, ANSWER_SPLIT] if why == [ANN_MISS] else [ANSWER_SPLIT, *why]
        return labels, (touching[0], touching[-1]), outranked, _searched_out(why, rank, chunk)
    if not _readable(table, [excerpt], truncation):
        return [ANSWER_TRUNCATED], (), None, None
    rank, chunk = min((decision.rank_of(i), i) for i in holding)
    outranked = _outranked(table, decision, rank, chunk, excerpt) \
        if rank > 1 or not decision.scored(chunk) else None
    why = _rank_labels(decision, rank, chunk, outranked)
    return why, (), outranked, _searched_out(why, rank, chunk)


def _searched_out(labels: Sequence[str], rank: int, chunk: int) -> AnnMiss | None:
    """The chunk an approximate search lost and its rank in the scores (``ann-miss``); the
    index's recall and settings are the exact check's to add."""
    return AnnMiss(chunk, rank) if ANN_MISS in labels else None


def _excerpt(span: AnswerSpan) -> Excerpt:
    return Excerpt(span.source, span.start, span.end)


def _text(corpus: Corpus, span: AnswerSpan | Excerpt) -> str:
    return corpus.source(span.source).text[span.start:span.end].strip()


def _pieces(corpus: Corpus, source: str, pieces: Sequence[tuple[int, int]]) -> str:
    """Pieces of one file's text, joined as the prompt joins what it leaves out."""
    text = corpus.source(source).text
    return " … ".join(text[a:b].strip() for a, b in pieces if text[a:b].strip())


def _in_context(reaches: Sequence[Reach], context: Sequence[int], table: ChunkTable,
                decision: Decision) -> tuple[tuple[int, int], ...]:
    """(chunk, rank) of the chunks sent that hold part of an expected excerpt, by rank."""
    held = {i for r in reaches for i in context
            if share_held(r.excerpt, i, table) > 0}
    return tuple(sorted(((i, decision.rank_of(i)) for i in held), key=lambda p: (p[1], p[0])))


def _rank_labels(decision: Decision, rank: int, chunk: int,
                 outranked: Outranked | None) -> list[str]:
    """Labels of the chunk that should have brought the missing part (``chunk``, at
    ``rank``), in the order of what to change first. Inside top_k it can only have been
    the floor that kept it out (raising top_k changes nothing), or the search that picked
    the hits losing it (``ann-miss``: an approximate index); outside top_k, being
    outranked leads, and the floor follows when it would keep the chunk out too. A chunk
    the ranking never scored (a retriever that returned fewer than top_k without it) was
    beaten by what it returned, wherever NaN sorts it."""
    floor = [BELOW_FLOOR] if decision.score(chunk) < decision.floor else []
    if not floor and _lost_by_the_search(decision, rank, chunk):
        return [ANN_MISS]
    if outranked is None or (rank <= decision.top_k and decision.scored(chunk)):
        return floor
    beaten = OUTRANKED_BY_OTHER_DOCUMENT if outranked.other_document else OUTRANKED
    return [beaten, *floor]


def _lost_by_the_search(decision: Decision, rank: int, chunk: int) -> bool:
    """The scores put ``chunk`` inside the top_k and it reaches the floor, yet the hits
    lack it: the hits came from another search than the scores' own, an approximate index
    that lost it (``ann-miss``, database mode). Hits picked from the scores never do this."""
    return (rank <= decision.top_k and decision.scored(chunk) and decision.passes(chunk)
            and all(hit.index != chunk for hit in decision.hits))


def _answer_span(
    table: ChunkTable, decision: Decision, spans: Sequence[AnswerSpan],
    context: Sequence[int] = (),
) -> AnswerSpan | None:
    """Where the answer is: of the files that have it, the first one the context holds
    whole, else the one whose holding chunk ranks best; the first file that has it when
    no chunk holds it whole."""
    if len(spans) == 1:
        return spans[0]
    for position, found in enumerate(reach([_excerpt(s) for s in spans], context, table)):
        if found.whole:
            return spans[position]
    ranked = [
        (min(decision.rank_of(i) for i in holding), position, span)
        for position, span in enumerate(spans)
        if (holding := table.holding(span))
    ]
    if ranked:
        return min(ranked, key=lambda item: (item[0], item[1]))[2]
    return spans[0] if spans else None


def _readable(table: ChunkTable, spans: Sequence[Located],
              truncation: Sequence[int | None]) -> tuple[int, ...]:
    """Chunks holding one of ``spans`` in which the model reads that span to its end."""
    out: set[int] = set()
    for span in spans:
        for index in table.holding(span):
            stop = truncation[index] if index < len(truncation) else None
            if stop is None or span.end <= stop:
                out.add(index)
    return tuple(sorted(out))


def _outranked(table: ChunkTable, decision: Decision, rank: int, chunk: int,
               excerpt: Excerpt, part: bool = False) -> Outranked:
    """``chunk`` (holding the excerpt, or only its ``part`` left out) lost to the first
    chunk; the share of the excerpt that winner holds itself says whether it is a
    stranger or a piece of the answer."""
    by_index = table.chunks
    winner = decision.best_index or 0
    return Outranked(chunk, rank, decision.score(chunk), winner, decision.score(winner),
                     about(by_index[winner]), by_index[chunk].source, by_index[winner].source,
                     share_held(excerpt, winner, table), part)


def with_first_stage(diagnosis: Diagnosis | None, first: Decision | None) -> Diagnosis | None:
    """``diagnosis`` with where the answer's chunk ranked before a reranker (``first``: the
    first stage's decision), and ``reranked-out`` leading when the chunk that should have
    brought the missing part was in the first stage's top_k and the reranker pushed it
    out; unchanged without a reranker."""
    if diagnosis is None or first is None:
        return diagnosis
    first_rank = min((first.rank_of(i) for i in diagnosis.holding_chunks), default=None)
    lost = diagnosis.outranked
    if lost is None:
        return replace(diagnosis, first_rank=first_rank)
    lost = replace(lost, first_rank=first.rank_of(lost.chunk))
    labels = diagnosis.labels
    beaten = {OUTRANKED, OUTRANKED_BY_OTHER_DOCUMENT} & set(labels)
    if beaten and lost.first_rank is not None and lost.first_rank <= diagnosis.top_k:
        labels = (RERANKED_OUT, *labels)
    return replace(diagnosis, labels=labels, first_rank=first_rank, outranked=lost)


def crowding(top: Sequence[int], groups: Sequence[int]) -> tuple[int, ...]:
    """The chunks of ``top`` that share a duplicate group (``groups[i]``, -1 for a chunk
    with no copy) with another chunk of ``top``."""
    seen = [groups[i] for i in top if groups[i] >= 0]
    return tuple(i for i in top if groups[i] >= 0 and seen.count(groups[i]) > 1)


def with_crowding(diagnosis: Diagnosis | None, decision: Decision,
                  groups: Sequence[int]) -> Diagnosis | None:
    """``diagnosis`` with ``duplicate-crowding`` added when copies of one passage (same
    duplicate group) take more than one place of the context sent: the decision's hits
    (a copy under the floor took no place; in database mode, the database's top_k);
    unchanged without groups."""
    if diagnosis is None or not groups:
        return diagnosis
    copies = crowding([hit.index for hit in decision.hits], groups)
    if not copies:
        return diagnosis
    return replace(diagnosis, labels=(*diagnosis.labels, DUPLICATE_CROWDING), crowding=copies)


def label_counts(diagnoses: Iterable[Diagnosis | None]) -> dict[str, int]:
    """How many questions carry each label (every label of a question counts), in LABELS
    order with zeros included; unlabelled questions (None) are skipped."""
    counter: Counter[str] = Counter()
    for diagnosis in diagnoses:
        if diagnosis is not None:
            counter.update(diagnosis.labels)
    return {label: counter[label] for label in LABELS}
