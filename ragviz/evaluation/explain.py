"""From a support ticket (the customer's question, the bot's answer, maybe the right answer)
to its cause, with no labels file: which chunks the bot was sent, which of them its answer
came from, and where in the whole corpus the right answer most likely is.

It runs the one pipeline (``pipeline.analyse``, or an analysis a caller already made the
same way: a production index, a workspace) on the question alone, labelled with the
expected answer when one is given, so its labels are the ones ``ragviz eval`` gives.

Attribution is word overlap: the bot's answer and every chunk sent are normalised (case
folded, accents removed, whitespace collapsed) and cut into words; the answer's *content
words* (every word that is not an English or Portuguese stopword: numbers count) are looked
up in each chunk. A chunk's ``share`` is the part of those distinct words it holds; a chunk
holding at least ``ATTRIBUTION_SHARE`` of them is one the answer came from.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ragviz.chunking import ChunkerConfig
from ragviz.chunking.text import split_sentences
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import DEFAULT_SETTINGS, analyse, encode_questions
from ragviz.evaluation.results import Analysis, QuestionOutcome, RetrievalSettings
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.decision import with_neighbours

ATTRIBUTION_SHARE = 0.5  # of the answer's content words: less, and it came from elsewhere
CANDIDATES = 5  # passages listed; at least 3 whenever the corpus holds that many
MAX_WINDOWS = 3_000  # sentence windows embedded for the candidates; past that, the chunks
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class SentChunk:
    """A chunk the model was sent, in the order it was sent, with its score and rank (the
    descriptions: what ``ragviz schema explain`` publishes)."""

    index: int
    source: str
    start: int
    end: int
    text: str = field(metadata={"description": "the chunk as sent: the source's text[start:end]"})
    score: float
    rank: int = field(metadata={"description": "1-based rank of the chunk for the question"})


@dataclass(frozen=True)
class AnswerSource:
    """A chunk sent that holds ``share`` (0-1) of the answer's content words."""

    index: int = field(metadata={"description": "a chunk of context"})
    share: float = field(metadata={
        "description": "the part (0-1) of the answer's distinct content words found in the chunk,"
                       " both normalised (case, accents, whitespace)"})


@dataclass(frozen=True)
class Candidate:
    """A passage of the corpus (``text == source text[start:end]``) likely to hold the right
    answer, its score for the question, and the chunk that holds most of it."""

    source: str
    start: int
    end: int
    text: str = field(metadata={"description": "the source's text[start:end]"})
    score: float = field(metadata={
        "description": "the model's cosine for the question (the mean with the expected answer's "
                       "when given)"})
    chunk: int | None = field(metadata={"description": "the chunk holding most of the passage"})
    chunk_rank: int | None
    chunk_score: float | None
    sent: bool = field(metadata={"description": "whether that chunk was in the context sent"})


@dataclass(frozen=True)
class Explanation:
    """What ``explain`` found for one ticket; ``outcome`` is the question's row as ``eval``
    makes it (its diagnosis is None when no expected answer was given: no label invented)."""

    analysis: Analysis
    outcome: QuestionOutcome
    bot_answer: str
    expected: str
    context: tuple[SentChunk, ...]
    answer_from: tuple[AnswerSource, ...]
    shares: tuple[AnswerSource, ...]  # every chunk sent, best first (answer_from's source)
    candidates: tuple[Candidate, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        diagnosis = self.outcome.diagnosis
        return diagnosis.labels if diagnosis is not None and self.expected else ()


def ticket_question(question: str, expected: str = "") -> LabelledQuestion:
    """The ticket's question as the pipeline reads it: labelled with the expected answer
    when one is given, unlabelled (no diagnosis, no label) otherwise."""
    return LabelledQuestion(question.strip(), expected.strip())


def explain(corpus: str | Corpus, config: ChunkerConfig, embedder: Embedder,
            question: str | LabelledQuestion, bot_answer: str, expected: str = "",
            settings: RetrievalSettings = DEFAULT_SETTINGS) -> Explanation:
    """Chunk, embed, score and decide the ticket's question on ``corpus`` (the pipeline
    ``eval`` runs), then attribute the bot's answer and rank the candidate passages. A
    ``LabelledQuestion`` brings its own label (an excerpt picked at exact offsets)."""
    asked = question if isinstance(question, LabelledQuestion) \
        else ticket_question(question, expected)
    analysis = analyse(as_corpus(corpus), config, embedder, [asked], settings)
    return explain_analysis(analysis, embedder, bot_answer,
                            asked.expected if asked.is_answerable else "")


def explain_analysis(analysis: Analysis, embedder: Embedder, bot_answer: str,
                     expected: str = "") -> Explanation:
    """The explanation of an analysis made for the ticket's one question (``analyse``, a
    production index's or a workspace's analysis)."""
    outcome = analysis.outcomes[0]
    context = sent_chunks(analysis, outcome)
    shares = answer_shares(bot_answer, context)
    return Explanation(
        analysis=analysis, outcome=outcome, bot_answer=bot_answer, expected=expected.strip(),
        context=context, shares=shares,
        answer_from=tuple(s for s in shares if s.share >= ATTRIBUTION_SHARE),
        candidates=candidates(analysis, outcome, embedder, expected, context))


def sent_chunks(analysis: Analysis, outcome: QuestionOutcome) -> tuple[SentChunk, ...]:
    """The chunks in the prompt, in its order: the hits, with ``expand``'s neighbours."""
    hits, _ = with_neighbours(analysis.chunks, outcome.decision, analysis.settings.expand)
    decision = outcome.decision
    out = []
    for hit in hits:
        chunk = analysis.chunks[hit.index]
        out.append(SentChunk(hit.index, chunk.source, chunk.start, chunk.end, chunk.text,
                             float(hit.score), decision.rank_of(hit.index)))
    return tuple(out)


def normalised(text: str) -> str:
    """Case folded, accents removed, whitespace collapsed: how answers and chunks compare."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def content_words(text: str) -> set[str]:
    """The normalised words of ``text`` that carry content: not an English or Portuguese
    stopword (numbers always count)."""
    return {w for w in _WORD.findall(normalised(text)) if w not in _stopwords()}


def words(text: str) -> set[str]:
    return set(_WORD.findall(normalised(text)))


@cache
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_PORTUGUESE

    return frozenset(normalised(w) for w in (*STOPWORDS_EN, *STOPWORDS_PORTUGUESE))


def answer_shares(answer: str, context: Sequence[SentChunk]) -> tuple[AnswerSource, ...]:
    """Per chunk sent, the part of the answer's content words it holds, best first (ties
    in the order sent); empty when the answer has no content word."""
    wanted = content_words(answer)
    if not wanted:
        return ()
    shares = [AnswerSource(c.index, len(wanted & words(c.text)) / len(wanted)) for c in context]
    return tuple(sorted(shares, key=lambda s: -s.share))


@dataclass(frozen=True)
class _Passage:
    source: str
    start: int
    end: int
    text: str


def passages(corpus: Corpus) -> list[_Passage]:
    """Every sentence with the one after it (a single sentence at a file's end), at exact
    offsets: small enough to quote, wide enough to hold an answer cut at a full stop."""
    out: list[_Passage] = []
    for source in corpus.sources:
        spans = split_sentences(source.text)
        for number, (start, _) in enumerate(spans):
            end = spans[min(number + 1, len(spans) - 1)][1]
            out.append(_Passage(source.name, start, end, source.text[start:end]))
    return out


def candidates(analysis: Analysis, outcome: QuestionOutcome, embedder: Embedder,
               expected: str, context: Sequence[SentChunk]) -> tuple[Candidate, ...]:
    """The passages of the whole corpus most like the question (the mean of the question's
    and the expected answer's cosine when one is given; passages holding the expected
    answer's words in that order come first), best first, none overlapping a better one:
    sentence windows, or the chunks themselves past ``MAX_WINDOWS``."""
    found = passages(analysis.corpus)
    if not found or len(found) > MAX_WINDOWS:
        found = [_Passage(c.source, c.start, c.end, c.text) for c in analysis.chunks]
    if not found:
        return ()
    vectors = embedder.encode_documents([p.text for p in found])
    asked = [LabelledQuestion(outcome.question.question)]
    if expected.strip():
        asked.append(LabelledQuestion(expected.strip()))
    queries = encode_questions(embedder, asked)
    scores = np.asarray(vectors @ queries.T, dtype=np.float64).mean(axis=1)
    sent = {c.index for c in context}
    wanted = normalised(expected)
    holds = [bool(wanted) and wanted in normalised(p.text) for p in found]
    order = sorted(range(len(found)), key=lambda i: (not holds[i], -scores[i], i))
    chosen: list[Candidate] = []
    said: set[str] = set()
    for position in order:
        passage = found[position]
        if any(c.source == passage.source and c.start < passage.end and passage.start < c.end
               for c in chosen) or normalised(passage.text) in said:
            continue  # overlapping a better one, or the same words again (a copied page)
        said.add(normalised(passage.text))
        chosen.append(_candidate(analysis, outcome, passage, float(scores[position]), sent))
        if len(chosen) == CANDIDATES:
            break
    return tuple(chosen)


def _candidate(analysis: Analysis, outcome: QuestionOutcome, passage: _Passage, score: float,
               sent: set[int]) -> Candidate:
    """A passage with the chunk holding most of it (its rank and score for the question)."""
    best, overlap = None, 0
    for chunk in analysis.chunks_of(passage.source):
        shared = min(chunk.end, passage.end) - max(chunk.start, passage.start)
        if shared > overlap:
            best, overlap = chunk.index, shared
    decision = outcome.decision
    return Candidate(
        passage.source, passage.start, passage.end, passage.text, score, best,
        None if best is None else decision.rank_of(best),
        None if best is None else decision.score(best), best in sent)
