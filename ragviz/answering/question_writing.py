"""Labelled questions for a corpus that has none, written by the user's own chat model and
trusted only once checked (the filters of Chroma's synthetic benchmark and ragas):

1. each passage (``ragviz.answering.passages``) is sent with an editable template asking for
   questions it answers, each with excerpts copied word for word;
2. every excerpt is located in the passage's file (``excerpt_match``): the file's exact text
   and offsets are kept; a question with an excerpt found nowhere is dropped;
3. a question asked already (the same words, or cosine >= ``NEAR_DUPLICATE`` between the
   embedding model's vectors) is kept once; a question whose words are nearly all its
   excerpts' (``GIVEAWAY`` or more of them) is a give-away, dropped unless kept on purpose;
4. ``ragviz.answering.unanswerable`` adds the questions no file answers.

Every drop is counted by its reason in :class:`WritingSummary`. Progress is reported after
every request; raising from it stops the run and keeps what was written.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ragviz.answering.chat import ChatAnswer
from ragviz.answering.excerpt_match import locate_excerpt
from ragviz.answering.passages import Passage
from ragviz.answering.prompt import check_template
from ragviz.answering.question_replies import Draft, parse_reply
from ragviz.answering.run import Asker
from ragviz.embedding.models import Embedder
from ragviz.errors import LLMError
from ragviz.i18n import catalog_text
from ragviz.inputs.questions import LabelledQuestion, Reference

NEAR_DUPLICATE = 0.95  # cosine between two questions' vectors: the same question reworded
GIVEAWAY = 0.8  # share of a question's words found in its excerpts: it gives the answer away
PER_PASSAGE = 3  # questions asked of each passage
FIELDS = ("{passage}", "{count}")
MAX_FAILURES_IN_A_ROW = 3
_WORD = re.compile(r"\w+")

# why a question was dropped (the summary's keys; the sentences say them)
NOT_JSON = "not-json"
MALFORMED = "malformed"
NO_EXCERPT = "no-excerpt"
NOT_IN_FILE = "excerpt-not-in-file"
REPEAT = "repeat"
NEAR_REPEAT = "near-duplicate"
GIVES_AWAY = "give-away"


def default_writing_template(lang: str) -> str:
    """The catalog's question-writing template in ``lang`` (its JSON example's braces are
    doubled in the catalog, as every catalog entry's literal braces are)."""
    return unbraced(catalog_text("questions.template", lang))


def unbraced(text: str) -> str:
    """A catalog entry's doubled braces made single (the fields are filled by name)."""
    return text.replace("{{", "{").replace("}}", "}")


def check_writing_template(template: str) -> str:
    """``template`` when it holds ``{passage}`` and ``{count}`` and is not too long."""
    return check_template(template, FIELDS, "questions.template_fields")


def writing_prompt(template: str, passage: Passage, count: int) -> str:
    """The template with its fields filled (the passage last, so its braces stay its own)."""
    marker = "\x00passage\x00"
    return (template.replace("{passage}", marker).replace("{count}", str(count))
            .replace("{file}", passage.source).replace(marker, passage.text))


@dataclass(frozen=True)
class WrittenQuestion:
    """A kept question: its excerpts at exact offsets of ``source``, how much of it its
    excerpts already say (``overlap``) and whether that makes it a give-away."""

    question: LabelledQuestion
    source: str
    overlap: float = 0.0
    giveaway: bool = False


@dataclass
class WritingSummary:
    """What a run asked, kept and dropped (by reason), and what it cost in tokens."""

    model: str
    wanted: int
    calls: int = 0
    failed_calls: int = 0
    drafted: int = 0
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    flagged: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    unanswerable_wanted: int = 0
    unanswerable_kept: int = 0
    unanswerable_dropped: Counter[str] = field(default_factory=Counter)
    passages: int = 0
    passage_tokens: int = 0
    stopped: bool = False

    def count(self, answer: ChatAnswer) -> None:
        self.calls += 1
        self.prompt_tokens += answer.prompt_tokens or 0
        self.completion_tokens += answer.completion_tokens or 0

    def to_dict(self) -> dict[str, object]:
        return {"model": self.model, "wanted": self.wanted, "calls": self.calls,
                "failed_calls": self.failed_calls,
                "drafted": self.drafted, "kept": self.kept, "dropped": dict(self.dropped),
                "flagged_giveaways": self.flagged, "passages": self.passages,
                "passage_tokens": self.passage_tokens,
                "tokens": {"prompt": self.prompt_tokens, "completion": self.completion_tokens},
                "unanswerable": {"wanted": self.unanswerable_wanted,
                                 "kept": self.unanswerable_kept,
                                 "dropped": dict(self.unanswerable_dropped)},
                "stopped": self.stopped}


def words(text: str) -> list[str]:
    """The words compared (case folded)."""
    return _WORD.findall(text.casefold())


def overlap(question: str, excerpts: list[str]) -> float:
    """The share of the question's words (three letters or more) its excerpts hold."""
    asked = [w for w in words(question) if len(w) >= 3]
    held = {w for excerpt in excerpts for w in words(excerpt)}
    return sum(w in held for w in asked) / len(asked) if asked else 0.0


class Repeats:
    """The questions kept so far: a new one is a repeat when its words are a kept one's, a
    near repeat when its vector is within ``NEAR_DUPLICATE`` cosine of a kept one's."""

    def __init__(self, embedder: Embedder | None, threshold: float = NEAR_DUPLICATE) -> None:
        self.embedder = embedder
        self.threshold = threshold
        self.seen: set[tuple[str, ...]] = set()
        self.vectors: list[np.ndarray] = []

    def why_not(self, question: str) -> str | None:
        """REPEAT, NEAR_REPEAT or None (then the question is remembered)."""
        key = tuple(words(question))
        if key in self.seen:
            return REPEAT
        vector = None
        if self.embedder is not None:
            vector = np.asarray(self.embedder.encode_queries([question]))[0]
            if self.vectors and float(np.max(np.stack(self.vectors) @ vector)) \
                    >= self.threshold:
                return NEAR_REPEAT
        self.seen.add(key)
        if vector is not None:
            self.vectors.append(vector)
        return None


def _verified(draft: Draft, passage: Passage, text: str) -> tuple[Reference, ...] | None:
    """The draft's excerpts at their exact place in the passage's file (None: one is not
    there, or there is none)."""
    out: list[Reference] = []
    for excerpt in draft.excerpts:
        located = locate_excerpt(text, excerpt, near=passage.start)
        if located is None:
            return None
        out.append(Reference(text[located.start:located.end], located.start, located.end,
                             passage.source))
    return tuple(out)


@dataclass
class Filters:
    """The checks a draft passes before it is kept."""

    repeats: Repeats
    giveaway: float = GIVEAWAY
    keep_giveaways: bool = False

    def judge(self, draft: Draft, passage: Passage, text: str
              ) -> tuple[WrittenQuestion | None, str | None]:
        """The kept question, or None and the reason it was dropped."""
        if not draft.excerpts:
            return None, NO_EXCERPT
        references = _verified(draft, passage, text)
        if references is None:
            return None, NOT_IN_FILE
        share = overlap(draft.question, [r.content for r in references])
        gives_away = share >= self.giveaway
        if gives_away and not self.keep_giveaways:
            return None, GIVES_AWAY
        why = self.repeats.why_not(draft.question)
        if why is not None:
            return None, why
        question = LabelledQuestion(draft.question, answerable=True, references=references)
        return WrittenQuestion(question, passage.source, round(share, 3), gives_away), None


Progress = Callable[[int, int], None]
OnQuestion = Callable[[WrittenQuestion], None]


@dataclass
class QuestionWriter:
    """One run of question writing against a chat model (see the module): the asker's, with
    its timeout, retries and the run's time budget."""

    asker: Asker
    template: str
    filters: Filters
    summary: WritingSummary
    per_passage: int = PER_PASSAGE

    def write(self, passages: list[Passage], texts: dict[str, str], on_question: OnQuestion,
              progress: Progress | None = None) -> None:
        """Ask passage after passage until ``summary.wanted`` questions are kept or the
        passages (at most three rounds' worth of requests) run out."""
        wanted = self.summary.wanted
        limit = 3 * math.ceil(wanted / self.per_passage) + len(texts)
        failures = 0
        for passage in passages[:limit]:
            if self.summary.kept >= wanted:
                break
            asked = min(self.per_passage, max(1, wanted - self.summary.kept))
            try:
                answer = self.asker.ask_now(writing_prompt(self.template, passage, asked))
            except LLMError as error:
                failures += 1
                if self.asker.spent:  # the budget cut this call: it ends the run, said so
                    raise self.asker.budget_spent() from error
                if failures >= MAX_FAILURES_IN_A_ROW or not self.summary.calls:
                    raise  # this failure ends the run: it was not skipped
                self.summary.failed_calls += 1
                continue
            failures = 0
            self.summary.count(answer)
            self._keep(answer.text, passage, texts[passage.source], on_question)
            if progress is not None:
                progress(min(self.summary.kept, wanted), wanted)

    def _keep(self, reply_text: str, passage: Passage, text: str,
              on_question: OnQuestion) -> None:
        reply = parse_reply(reply_text)
        summary = self.summary
        if not reply.json:
            summary.dropped[NOT_JSON] += 1
            return
        summary.dropped[MALFORMED] += reply.malformed
        for draft in reply.drafts:
            if summary.kept >= summary.wanted:
                break
            summary.drafted += 1
            written, why = self.filters.judge(draft, passage, text)
            if written is None:
                summary.dropped[why or NOT_IN_FILE] += 1
                continue
            summary.kept += 1
            summary.flagged += written.giveaway
            on_question(written)
