"""What a sweep will cost, said before it starts (issue 44.4): its configurations and their
chunks, the distinct texts to embed and how many of them the cache already holds, and the
time that takes at the model's pace measured on this machine. A sweep estimated past
``LONG_SECONDS`` asks to be confirmed; ``labelled_files`` is the smaller corpus it offers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import embedding_text
from ragviz.evaluation.sweeping import grid_chunks
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.questions import LabelledQuestion

LONG_SECONDS = 600.0  # past ten minutes a sweep asks to be confirmed
PROBE_TEXTS = 16  # texts embedded to measure the pace when none was measured yet (one batch)


@dataclass(frozen=True)
class SweepCost:
    """The work of a sweep: ``rows`` (configurations x scorers), ``chunks`` of all its
    configurations, ``texts`` distinct chunk texts of which ``cached`` are already
    embedded, and ``seconds`` to embed the rest (None: no pace could be measured)."""

    rows: int
    chunks: int
    texts: int
    cached: int
    seconds: float | None

    @property
    def long(self) -> bool:
        return self.seconds is not None and self.seconds > LONG_SECONDS


def sweep_cost(document: str | Corpus, grid: Sequence[ChunkerConfig], embedder: Embedder,
               scorers: Sequence[str] = ()) -> SweepCost:
    """Chunk every configuration (as the sweep will), look the texts up in the caches and
    time the rest at the model's measured pace; with no pace yet, one batch of the texts
    to embed measures it (and is then cached: the sweep does not embed it again)."""
    plan = grid_chunks(as_corpus(document), grid, embedder, None)
    chunkings = [c for c in plan.chunkings if c is not None]
    texts = list(dict.fromkeys(embedding_text(c) for chunking in chunkings
                               for c in chunking.chunks))
    cached = embedder.cached_texts(texts)
    missing = [text for text in texts if text not in cached]
    pace = embedder.chars_per_second()
    if pace is None and missing:
        embedder.encode_documents(missing[:PROBE_TEXTS])
        missing = missing[PROBE_TEXTS:]
        pace = embedder.chars_per_second(at_least=1)
    seconds = None if pace is None else sum(len(text) for text in missing) / pace
    return SweepCost(len(grid) * max(1, len(scorers)),
                     sum(len(c.chunks) for c in chunkings), len(texts),
                     len(texts) - len(missing), seconds)


def labelled_files(corpus: Corpus, questions: Sequence[LabelledQuestion]) -> Corpus:
    """The files a labelled answer is in (named by an excerpt, or holding an answer's
    text): the smaller corpus a long sweep offers. The whole corpus when none is found."""
    named = {ref.source for q in questions for ref in q.references if ref.source}
    answers = [q.expected for q in questions if q.is_answerable and q.expected]
    kept = tuple(source for source in corpus.sources
                 if source.name in named or source.name.rsplit(".", 1)[0] in named
                 or any(answer in source.text for answer in answers))
    return Corpus(kept, corpus.problems) if kept else corpus
