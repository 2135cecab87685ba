"""Questions on the corpus's subjects that no file answers: what the floor's calibration needs
and no labelled set has.

The model is shown each file's name and opening and asked for plausible questions that these
files do not answer. Each candidate is then checked the way the answer step would meet it:
the embedding model retrieves its top passages, the model is asked to answer from them with
the answer step's template, and the candidate is kept only when the model says it cannot
answer (a refusal phrase), or when its answer shares less than half its words with every
passage it was shown and is nowhere in the corpus's text. A candidate answered from the
passages is dropped as answerable. The check is one-sided: a file that answers the question
in words the retrieval does not reach is not seen (docs/guide/generate-questions.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ragviz.answering.question_replies import parse_reply
from ragviz.answering.question_writing import Repeats, WritingSummary, unbraced
from ragviz.answering.run import Asker, answer_one, sent_hits
from ragviz.answering.verdict import SentChunk, is_refusal, source_chunk
from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from ragviz.evaluation.answers import locate_answer
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import Analysis, QuestionOutcome, RetrievalSettings
from ragviz.i18n import catalog_text
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion

CHECK_CHUNKS = ChunkerConfig("recursive", size=800, overlap=0)  # the passages a check shows
CHECK_TOP_K = 5
MAX_TOPIC_FILES = 30
OPENING_CHARS = 300
ROUNDS = 3  # requests for candidates, at most

REFUSED = "refused"  # kept: the model said it cannot answer from the top passages
ANSWERED_ELSEWHERE = "answered-outside-the-passages"  # kept: its answer is in no passage
ANSWERED = "answered-from-the-corpus"  # dropped
CHECK_FAILED = "check-failed"  # dropped: the check's call failed
UNANSWERABLE_REPEAT = "repeat"  # dropped


@dataclass(frozen=True)
class Unanswerable:
    """A kept unanswerable question and how its check ended (REFUSED, ANSWERED_ELSEWHERE)."""

    question: LabelledQuestion
    check: str


def topics(corpus: Corpus) -> str:
    """Each file's name and opening, one line each (the first 30 files)."""
    return "\n".join(f"- {source.name}: {' '.join(source.text[:OPENING_CHARS].split())}"
                     for source in corpus.sources[:MAX_TOPIC_FILES])


def candidates_prompt(corpus: Corpus, count: int, lang: str) -> str:
    template = unbraced(catalog_text("questions.unanswerable_template", lang))
    return template.replace("{count}", str(count)).replace("{topics}", topics(corpus))


def _in_corpus(corpus: Corpus, answer: str) -> bool:
    return any(locate_answer(source.text, answer) is not None for source in corpus.sources)


def check(analysis: Analysis, outcome: QuestionOutcome, asker: Asker, corpus: Corpus
          ) -> tuple[str, int, int]:
    """How the check of one candidate ends, and the tokens it cost."""
    result = answer_one(analysis, outcome, asker)
    tokens = result.reply.tokens() if result.reply is not None else {}
    cost = (tokens.get("prompt") or 0, tokens.get("completion") or 0)
    if result.answer is None:
        return CHECK_FAILED, *cost
    if is_refusal(result.answer, asker.phrases):
        return REFUSED, *cost
    sent = [SentChunk(hit.index, analysis.chunks[hit.index].text, False)
            for hit in sent_hits(analysis, outcome)]
    if source_chunk(result.answer, sent) is not None or _in_corpus(corpus, result.answer):
        return ANSWERED, *cost
    return ANSWERED_ELSEWHERE, *cost


@dataclass
class UnanswerableWriter:
    """Asks for candidates and checks them until ``summary.unanswerable_wanted`` are kept."""

    asker: Asker
    corpus: Corpus
    embedder: Embedder
    summary: WritingSummary
    lang: str = "en"

    def write(self, on_question: Callable[[Unanswerable], None],
              progress: Callable[[], None] | None = None) -> None:
        wanted = self.summary.unanswerable_wanted
        asker = self.asker
        repeats = Repeats(self.embedder)
        for _ in range(ROUNDS):
            missing = wanted - self.summary.unanswerable_kept
            if missing <= 0:
                break
            answer = asker.ask_now(candidates_prompt(self.corpus, missing + 2, self.lang))
            self.summary.count(answer)
            drafts = parse_reply(answer.text).drafts
            fresh = [d.question for d in drafts if repeats.why_not(d.question) is None]
            self.summary.unanswerable_dropped[UNANSWERABLE_REPEAT] += len(drafts) - len(fresh)
            self._check_all(fresh, asker, on_question, progress)

    def _check_all(self, questions: list[str], asker: Asker,
                   on_question: Callable[[Unanswerable], None],
                   progress: Callable[[], None] | None) -> None:
        if not questions:
            return
        try:
            labelled = [LabelledQuestion(q) for q in questions]
            analysis = analyse(self.corpus, CHECK_CHUNKS, self.embedder, labelled,
                               RetrievalSettings(top_k=CHECK_TOP_K, floor=-1.0))
        except InputError:
            return
        for outcome in analysis.outcomes:
            if self.summary.unanswerable_kept >= self.summary.unanswerable_wanted:
                return
            ended, prompt, completion = check(analysis, outcome, asker, self.corpus)
            self.summary.calls += 1
            self.summary.prompt_tokens += prompt
            self.summary.completion_tokens += completion
            if ended in (REFUSED, ANSWERED_ELSEWHERE):
                self.summary.unanswerable_kept += 1
                on_question(Unanswerable(LabelledQuestion(
                    outcome.question.question, answerable=False), ended))
            else:
                self.summary.unanswerable_dropped[ended] += 1
            if progress is not None:
                progress()
