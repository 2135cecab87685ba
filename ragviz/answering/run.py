"""Every question of an analysis asked in turn: the floor's refusals are not asked (no call,
no cost), a failed call is one sentence for that question and the others keep their answers;
answers are cached by (model, prompt), so a prompt two configurations share is asked once.
A run has a time budget in all (``Asker.budget_s``): each request gets what is left of it, and
once it is spent the remaining questions are not asked (one sentence each)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragviz.answering.chat import ChatAnswer, ChatModel
from ragviz.answering.prompt import BuiltPrompt, TokenCounter, build_llm_prompt
from ragviz.answering.verdict import (
    CORRECT,
    FAILED,
    REFUSAL_PHRASES,
    REFUSED_BY_LLM,
    VERDICTS,
    SentChunk,
    judge,
    normalise,
)
from ragviz.errors import LLMError
from ragviz.evaluation.results import Analysis, QuestionOutcome
from ragviz.retrieval.decision import Hit, with_neighbours

Progress = Callable[[int, int], None]
ShouldStop = Callable[[], bool]


@dataclass(frozen=True)
class LLMResult:
    """One question's answer and verdict (``answer`` None: not asked, or the call failed)."""

    verdict: str
    answer: str | None = None
    chunk: int | None = None
    reply: ChatAnswer | None = None
    prompt: BuiltPrompt | None = None
    error: LLMError | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON row but its ``error``, which the CLI says in ``--lang``."""
        reply = self.reply
        return {"answer": self.answer, "verdict": self.verdict, "chunk": self.chunk,
                "tokens": reply.tokens() if reply else None,
                "latency_s": round(reply.latency_s, 3) if reply else None,
                "prompt": None if self.prompt is None else self.prompt.to_dict()}


@dataclass(frozen=True)
class LLMMetrics:
    """Answer accuracy (correct answers over answerable questions), the model's own refusal
    precision and recall (over the questions asked), calls and tokens."""

    answer_accuracy: float | None
    refusal_precision: float | None
    refusal_recall: float | None
    calls: int
    failures: int
    prompt_tokens: int
    completion_tokens: int
    verdicts: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        rounded = {name: None if value is None else round(value, 6) for name, value in (
            ("answer_accuracy", self.answer_accuracy),
            ("refusal_precision", self.refusal_precision),
            ("refusal_recall", self.refusal_recall))}
        return {**rounded, "calls": self.calls, "failures": self.failures,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "verdicts": self.verdicts}


@dataclass
class Asker:
    """The model, the template and the token budget one command asks with, and its time budget
    (``budget_s`` seconds from the first request; None: each request's own timeout only);
    ``calls`` counts the requests really made (a cached prompt costs none)."""

    model: ChatModel
    template: str
    counter: TokenCounter
    budget: int | None = None
    phrases: tuple[str, ...] = REFUSAL_PHRASES
    calls: int = 0
    cache: dict[tuple[str, str], ChatAnswer | LLMError] = field(default_factory=dict)
    budget_s: float | None = None
    _ends: float | None = None

    def ask(self, prompt: str, on_text: Callable[[str], None] | None = None,
            should_stop: ShouldStop | None = None) -> ChatAnswer | LLMError:
        key = (self.model.name, prompt)
        if key not in self.cache:
            try:
                self.cache[key] = self.ask_now(prompt, on_text, should_stop)
            except LLMError as error:
                return error  # not cached: asking again may work
        return self.cache[key]

    def ask_now(self, prompt: str, on_text: Callable[[str], None] | None = None,
                should_stop: ShouldStop | None = None) -> ChatAnswer:
        """``prompt`` asked now, past the cache (question writing asks each passage once)
        but inside the run's time budget; LLMError when it fails or the budget is spent."""
        left = self._left()
        if left is not None and left <= 0:
            raise self.budget_spent()
        self.calls += 1
        return self.model.ask(prompt, on_text, should_stop, left)

    def budget_spent(self) -> LLMError:
        """What every ask says once the run's budget is spent."""
        return LLMError(key="llm.budget_spent", seconds=f"{self.budget_s:g}")

    @property
    def spent(self) -> bool:
        """The run's budget is spent: every further ask fails at once, sending nothing."""
        return self._ends is not None and time.monotonic() >= self._ends

    def _left(self) -> float | None:
        """Seconds left of the run's budget (None: no budget), counted from the first ask."""
        if self.budget_s is None:
            return None
        if self._ends is None:
            self._ends = time.monotonic() + self.budget_s
        return self._ends - time.monotonic()


def answer_all(analysis: Analysis, asker: Asker, progress: Progress | None = None
               ) -> list[LLMResult]:
    """One result per outcome of ``analysis``, in order."""
    results: list[LLMResult] = []
    total = len(analysis.outcomes)
    for number, outcome in enumerate(analysis.outcomes, 1):
        results.append(answer_one(analysis, outcome, asker))
        if progress is not None:
            progress(number, total)
    return results


def answer_one(analysis: Analysis, outcome: QuestionOutcome, asker: Asker,
               on_text: Callable[[str], None] | None = None,
               should_stop: ShouldStop | None = None) -> LLMResult:
    built = _built(analysis, outcome, asker)
    if built is None:
        return _not_asked(outcome)
    reply = asker.ask(built.text, on_text, should_stop)
    if isinstance(reply, LLMError):
        return LLMResult(FAILED, prompt=built, error=reply)
    return _judged(analysis, outcome, asker, built, reply)


def _built(analysis: Analysis, outcome: QuestionOutcome, asker: Asker) -> BuiltPrompt | None:
    return build_llm_prompt(outcome.question.question, analysis.chunks,
                            sent_hits(analysis, outcome), asker.template, asker.counter,
                            asker.budget)


def _not_asked(outcome: QuestionOutcome) -> LLMResult:
    question = outcome.question
    return LLMResult(judge(None, question.is_answerable, question.expected, ())[0])


def _judged(analysis: Analysis, outcome: QuestionOutcome, asker: Asker, built: BuiltPrompt,
            reply: ChatAnswer) -> LLMResult:
    question = outcome.question
    sent = _sent_chunks(analysis, outcome, sent_hits(analysis, outcome))
    verdict, chunk = (REFUSED_BY_LLM, None) if reply.refused else judge(
        reply.text, question.is_answerable, question.expected, sent, asker.phrases)
    return LLMResult(verdict, reply.text, chunk, reply, built)


def sent_hits(analysis: Analysis, outcome: QuestionOutcome) -> list[Hit]:
    """The chunks the prompt carries: the hits and their ``expand`` neighbours, as the
    preview's prompt (``presentation.prompt_text``) has them."""
    return with_neighbours(analysis.chunks, outcome.decision, analysis.settings.expand)[0]


def _sent_chunks(analysis: Analysis, outcome: QuestionOutcome, hits: list[Hit]
                 ) -> list[SentChunk]:
    """The chunks the prompt carried, each marked when it holds the expected answer (the
    diagnosis's holding chunks and the chunks a split answer straddles, or its text
    holding the answer's)."""
    diagnosis = outcome.diagnosis  # a chunk holding part of a split answer is not "wrong"
    holding = {*diagnosis.holding_chunks, *diagnosis.split_between} if diagnosis else set()
    expected = normalise(outcome.question.expected)
    out: list[SentChunk] = []
    for hit in hits:
        chunk = analysis.chunks[hit.index]
        holds = hit.index in holding or bool(expected and expected in normalise(chunk.text))
        out.append(SentChunk(hit.index, chunk.text, holds))
    return out


@dataclass(frozen=True)
class AnswerSet:
    """One configuration's answers, as a report or a download carries them: the model asked
    (its name, never the key), each question's result in order (None: not asked yet) and the
    metrics over the questions answered."""

    model: str
    results: tuple[LLMResult | None, ...]
    metrics: LLMMetrics

    @property
    def complete(self) -> bool:
        """Every question has its result (asked, or not asked because the floor refused)."""
        return all(result is not None for result in self.results)


def answer_set(model: str, outcomes: Sequence[QuestionOutcome],
               results: Sequence[LLMResult | None], calls: int | None = None) -> AnswerSet:
    """The set of ``results`` (one per outcome); ``calls`` the requests really made, else
    the answers received."""
    pairs = [(o, r) for o, r in zip(outcomes, results, strict=True) if r is not None]
    made = sum(1 for _, r in pairs if r.reply is not None) if calls is None else calls
    return AnswerSet(model, tuple(results),
                     llm_metrics([o for o, _ in pairs], [r for _, r in pairs], made))


def kept_result(analysis: Analysis, outcome: QuestionOutcome, asker: Asker) -> LLMResult | None:
    """The result of a question from the answers ``asker`` already holds, never asking:
    ``not-asked`` when the floor refused, the judged answer when its prompt's answer is
    kept, None when it was not asked yet (or its call failed)."""
    built = _built(analysis, outcome, asker)
    if built is None:
        return _not_asked(outcome)
    reply = asker.cache.get((asker.model.name, built.text))
    return _judged(analysis, outcome, asker, built, reply) \
        if isinstance(reply, ChatAnswer) else None


def kept_answers(analysis: Analysis, asker: Asker) -> AnswerSet | None:
    """``analysis``'s answers that ``asker`` holds (None when no question was answered)."""
    results = [kept_result(analysis, outcome, asker) for outcome in analysis.outcomes]
    if not any(r is not None and r.reply is not None for r in results):
        return None
    return answer_set(asker.model.name, analysis.outcomes, results)


def verdict_flips(a: AnswerSet, b: AnswerSet) -> list[tuple[int, LLMResult, LLMResult]]:
    """The questions (position, A's result, B's) whose verdict differs from A to B, among
    those both sides have a result for."""
    return [(position, ra, rb) for position, (ra, rb) in enumerate(zip(a.results, b.results,
                                                                      strict=True))
            if ra is not None and rb is not None and ra.verdict != rb.verdict]


def llm_metrics(outcomes: Iterable[QuestionOutcome], results: Iterable[LLMResult], calls: int
                ) -> LLMMetrics:
    """The metrics of one configuration's answers (``calls``: requests really made)."""
    pairs = list(zip(outcomes, results, strict=True))
    answerable = [r for o, r in pairs if o.question.is_answerable is True]
    asked = [(o, r) for o, r in pairs if r.answer is not None]
    refused = [o for o, r in asked if r.verdict == REFUSED_BY_LLM]
    unanswerable = [o for o, _ in asked if o.question.is_answerable is False]
    right = sum(1 for o in refused if o.question.is_answerable is False)
    counts = Counter(r.verdict for _, r in pairs)
    replies = [r.reply for _, r in pairs if r.reply is not None]
    return LLMMetrics(
        answer_accuracy=(sum(r.verdict == CORRECT for r in answerable) / len(answerable)
                         if answerable else None),
        refusal_precision=right / len(refused) if refused else None,
        refusal_recall=right / len(unanswerable) if unanswerable else None,
        calls=calls,
        failures=counts.get(FAILED, 0),
        prompt_tokens=sum(r.prompt_tokens or 0 for r in replies),
        completion_tokens=sum(r.completion_tokens or 0 for r in replies),
        verdicts={v: counts[v] for v in VERDICTS if counts.get(v)})
