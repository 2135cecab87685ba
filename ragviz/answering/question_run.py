"""``ragviz questions`` and the app's "Generate questions": one run over a corpus, the same
for both. Answerable questions first (``question_writing``), then the unanswerable ones
(``unanswerable``); each kept question is handed on at once, so the caller can write the file
as it grows and a stop keeps everything handed on.

The questions file is Chroma's benchmark format, ``question,references,corpus_id``, plus
``answerable``: ``ragviz eval`` and the app read it as it is. When give-aways are kept, a
``giveaway`` column flags them (the readers accept it and ignore it).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass

from ragviz.answering.passages import (
    DEFAULT_PASSAGE_TOKENS,
    MIN_PASSAGE_TOKENS,
    passage_chars,
    spread_passages,
)
from ragviz.answering.prompt import token_counter
from ragviz.answering.question_writing import (
    PER_PASSAGE,
    Filters,
    QuestionWriter,
    Repeats,
    WritingSummary,
    WrittenQuestion,
    check_writing_template,
    default_writing_template,
)
from ragviz.answering.run import Asker
from ragviz.answering.unanswerable import Unanswerable, UnanswerableWriter
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from ragviz.inputs.corpus import Corpus

COLUMNS = ("question", "references", "corpus_id", "answerable")
GIVEAWAY_COLUMN = "giveaway"  # only when give-aways are kept: which rows are one
MAX_COUNT = 1_000
MAX_PASSAGE_TOKENS = 100_000

Row = WrittenQuestion | Unanswerable
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class WritingSettings:
    """What one run asks for: how many questions of each kind, the template (None: the
    catalog's in ``lang``), the passage's size in tokens and whether give-aways are kept
    (flagged)."""

    count: int
    unanswerable: int = 0
    template: str | None = None
    lang: str = "en"
    passage_tokens: int = DEFAULT_PASSAGE_TOKENS
    per_passage: int = PER_PASSAGE
    keep_giveaways: bool = False

    def __post_init__(self) -> None:
        for value in (self.count, self.unanswerable):
            if not 0 <= value <= MAX_COUNT:
                raise InputError(key="cli.whole_number", low=0, high=MAX_COUNT, got=value)
        if self.per_passage < 1:
            raise ValueError(f"per_passage must be at least 1, got {self.per_passage}")
        if not MIN_PASSAGE_TOKENS <= self.passage_tokens <= MAX_PASSAGE_TOKENS:
            raise InputError(key="cli.whole_number", low=MIN_PASSAGE_TOKENS,
                             high=MAX_PASSAGE_TOKENS, got=self.passage_tokens)

    def chosen_template(self) -> str:
        return check_writing_template(self.template or default_writing_template(self.lang))


class QuestionRun:
    """One run over a corpus: ``summary`` exists from the start, so a run stopped midway
    (Ctrl-C, the app's Cancel) still says what it kept and what it cost. ``asker`` is the
    answer step's: its model writes the questions; its template and refusal phrases check
    the unanswerable ones."""

    def __init__(self, corpus: Corpus, asker: Asker, embedder: Embedder | None,
                 settings: WritingSettings) -> None:
        self.corpus, self.asker, self.embedder, self.settings = corpus, asker, embedder, settings
        self.template = settings.chosen_template()
        budget = settings.passage_tokens
        counter = token_counter(asker.model.model)
        requests = 2 * math.ceil(settings.count / settings.per_passage)  # room for drops
        self.passages = spread_passages(corpus, passage_chars(corpus, counter, budget,
                                                              requests))
        self.summary = WritingSummary(asker.model.name, settings.count,
                                      unanswerable_wanted=settings.unanswerable,
                                      passages=len(self.passages), passage_tokens=budget)

    def run(self, on_row: Callable[[Row], None], progress: Progress | None = None
            ) -> WritingSummary:
        """Every kept question handed to ``on_row`` as it is kept; the summary."""
        settings, summary = self.settings, self.summary
        total = settings.count + settings.unanswerable
        filters = Filters(Repeats(self.embedder), keep_giveaways=settings.keep_giveaways)
        writer = QuestionWriter(self.asker, self.template, filters, summary,
                                settings.per_passage)
        texts = {source.name: source.text for source in self.corpus.sources}
        if settings.count:
            writer.write(self.passages, texts, on_row, None if progress is None
                         else lambda done, _wanted: progress(done, total))
        if settings.unanswerable and self.embedder is not None:
            UnanswerableWriter(self.asker, self.corpus, self.embedder, summary,
                               settings.lang).write(
                on_row, None if progress is None else
                lambda: progress(summary.kept + summary.unanswerable_kept, total))
        return summary


def csv_header(flagged: bool = False) -> str:
    """The header; ``flagged`` (give-aways kept) adds the ``giveaway`` column."""
    return _line([*COLUMNS, *([GIVEAWAY_COLUMN] if flagged else [])])


def csv_row(row: Row, flagged: bool = False) -> str:
    """One question as a line of the questions file (with its ``giveaway`` cell when
    ``flagged``, as :func:`csv_header` says)."""
    question = row.question
    if isinstance(row, Unanswerable):
        cells = [question.question, "", "", "false"]
        giveaway = False
    else:
        references = [{"content": r.content, "start_index": r.start, "end_index": r.end,
                       "source": r.source} for r in question.references]
        cells = [question.question, json.dumps(references, ensure_ascii=False), row.source,
                 "true"]
        giveaway = row.giveaway
    return _line([*cells, *([str(giveaway).lower()] if flagged else [])])


def _line(cells: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()
