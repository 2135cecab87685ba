"""An explanation said as a support answer: what the bot was sent, where its answer came
from, and where the right answer most likely is (the CLI's text and the app's "Check an
answer" say the same sentences)."""

from __future__ import annotations

import html
import re

from ragviz.evaluation.explain import (
    Candidate,
    Explanation,
    SentChunk,
    content_words,
    normalised,
)
from ragviz.i18n import decimal, joined, percent, t
from ragviz.inputs.documents import shorten
from ragviz.present.presentation import (
    chunk_name,
    decision_text,
    diagnosis_text,
    distinct_digits,
    label_name,
    question_numbers,
)

QUOTE = 60  # characters of a chunk or a passage quoted in a sentence


def where(source: str, start: int, end: int, language: str) -> str:
    """``faq.md 313–360``, or ``characters 313–360`` in a pasted text (no file name)."""
    if source:
        return t("explain.where", language, source=source, start=start, end=end)
    return t("explain.where_text", language, start=start, end=end)


def quote(text: str, expected: str = "") -> str:
    """A passage cut to ``QUOTE`` characters, around the expected answer when it holds it."""
    text = " ".join(text.split())
    found = normalised(text).find(normalised(expected)) if expected.strip() else -1
    if found < 0 or len(text) <= QUOTE or len(expected) >= QUOTE \
            or len(normalised(text)) != len(text):
        return shorten(text, QUOTE)
    start = max(0, found - (QUOTE - len(expected)) // 2)
    end = min(len(text), start + QUOTE)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def explanation_digits(x: Explanation) -> int:
    """Decimals for every score one explanation says (the chunks sent, the candidates, the
    gap, the verdict and the diagnosis), so one chunk's score reads the same in each
    sentence (0.346 twice, not 0.346 and then 0.35)."""
    values = [c.score for c in x.context] + [c.score for c in x.candidates]
    values += [c.chunk_score for c in x.candidates if c.chunk_score is not None]
    last = _last_sent(x.context)
    if x.candidates and x.candidates[0].chunk_score is not None and last is not None:
        values.append(last.score - x.candidates[0].chunk_score)
    return distinct_digits(values + question_numbers(x.outcome.decision, x.outcome.diagnosis))


def score_text(value: float, x: Explanation, language: str) -> str:
    """A score of ``x`` at the explanation's decimals."""
    return decimal(value, explanation_digits(x), language)


def sent_sentence(x: Explanation, language: str) -> str:
    """"The bot was sent chunk #1 ('…')", or what refused the question."""
    if not x.context:
        return t("explain.sent_none", language, decision=decision_text(
            x.outcome.decision, language, explanation_digits(x)))
    chunks = joined([f"{chunk_name(c.index)} ('{shorten(' '.join(c.text.split()), QUOTE)}')"
                     for c in x.context], language)
    return t("explain.sent", language, n=len(x.context), chunks=chunks)


def answer_sentence(x: Explanation, language: str) -> str:
    """Which chunks sent the answer came from, or that it came from none of them."""
    if not x.shares:
        return t("explain.answer_no_words", language)
    if x.answer_from:
        parts = [t("explain.answer_part", language, chunk=chunk_name(s.index),
                   share=percent(s.share, language)) for s in x.answer_from]
        return t("explain.answer_from", language, parts=joined(parts, language))
    return t("explain.answer_elsewhere", language, share=percent(x.shares[0].share, language))


def candidate_sentence(x: Explanation, language: str) -> str:
    """Where the right answer most likely is, and how far its chunk ranked from the context."""
    if not x.candidates:
        return t("explain.no_candidate", language)
    best = x.candidates[0]
    values: dict[str, object] = {"where": where(best.source, best.start, best.end, language),
              "quote": quote(best.text, x.expected)}
    if best.chunk is None or best.chunk_rank is None or best.chunk_score is None:
        return t("explain.candidate_plain", language, **values)
    values["chunk"] = chunk_name(best.chunk)
    if best.sent:
        return t("explain.candidate_sent", language, **values)
    values |= {"rank": best.chunk_rank, "score": score_text(best.chunk_score, x, language)}
    last = _last_sent(x.context)
    if last is None or last.score < best.chunk_score:
        return t("explain.candidate_ranked", language, **values)
    return t("explain.candidate", language, **values,
             gap=score_text(last.score - best.chunk_score, x, language))


def _last_sent(context: tuple[SentChunk, ...]) -> SentChunk | None:
    return min(context, key=lambda c: c.score) if context else None


def other_lines(x: Explanation, language: str) -> list[str]:
    """The other candidate passages, one line each."""
    return [t("explain.other", language, where=where(c.source, c.start, c.end, language),
              score=score_text(c.score, x, language), quote=quote(c.text, x.expected))
            for c in x.candidates[1:]]


def diagnosis_line(x: Explanation, language: str, hint_key: str) -> str:
    """Eval's labels and explanation with an expected answer; without one, how to get them
    (``hint_key``: the CLI names ``--expected``, the app its field)."""
    diagnosis = x.outcome.diagnosis
    if not x.expected or diagnosis is None:
        return t(hint_key, language)
    names = ", ".join(label_name(label, language) for label in diagnosis.labels)
    return t("explain.diagnosis", language, labels=names,
             explanation=diagnosis_text(diagnosis, language, explanation_digits(x)))


def explanation_lines(x: Explanation, language: str, hint_key: str) -> list[str]:
    """The whole support answer: one sentence per fact, then the other passages."""
    lines = [f"{sent_sentence(x, language)} {answer_sentence(x, language)}",
             candidate_sentence(x, language)]
    others = other_lines(x, language)
    if others:
        lines += [t("explain.others", language), *others]
    lines.append(diagnosis_line(x, language, hint_key))
    return lines


def candidate_label(candidate: Candidate, x: Explanation, language: str) -> str:
    """A candidate of ``x`` in one line, its whole passage (the app's list, beside its
    button)."""
    return t("explain.other", language,
             where=where(candidate.source, candidate.start, candidate.end, language),
             score=score_text(candidate.score, x, language),
             quote=" ".join(candidate.text.split()))


_WORD = re.compile(r"\w+")


def marked_html(text: str, answer: str) -> str:
    """A chunk sent, whole and escaped, the words of the answer it holds in ``<mark>``."""
    wanted = content_words(answer)
    out: list[str] = []
    last = 0
    for match in _WORD.finditer(text):
        if normalised(match.group()) in wanted:
            out += [html.escape(text[last:match.start()]),
                    f"<mark>{html.escape(match.group())}</mark>"]
            last = match.end()
    out.append(html.escape(text[last:]))
    return '<div class="rv-sent" style="white-space:pre-wrap">' + "".join(out) + "</div>"
