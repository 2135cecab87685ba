"""The questions tab's "Ask the LLM": settings (model, base URL, key, template, budget), one
button that asks every shown question of A and B (never a slider step: it costs money and
time), each answer streamed under its question with its verdict, a progress bar and a cancel.

Answers are kept in the session by (model, prompt) — the prompt holds the template — so a
rerun, a slider step back or the other side's identical prompt asks nothing again. The key is
a password field of the session (else the server's RAGVIZ_LLM_API_KEY / OPENAI_API_KEY); it is
in no link, workspace or cache key.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ragviz.answering.chat import ChatAnswer, ChatModel, parse_llm_name
from ragviz.answering.prompt import (
    build_llm_prompt,
    check_template,
    default_template,
    token_counter,
)
from ragviz.answering.run import (
    AnswerSet,
    Asker,
    LLMResult,
    answer_one,
    kept_answers,
    sent_hits,
)
from ragviz.answering.verdict import FAILED, NOT_ASKED, WRONG_CHUNK
from ragviz.errors import LLMError
from ragviz.evaluation.results import Analysis
from ragviz.i18n import LANGUAGES, Grouped, KeyedError, render
from ragviz_app.common import lang, md, ss, tr
from ragviz_app.frame import Frame

ASKING = "llm_asking"
CACHE = "llm_answers"
FAILED_NOW = "llm_failed"  # the last failure per (model, prompt): said, never cached
PROGRESS = "_llm_progress"
MODELS = "_llm_models"  # the chat model of the current settings, by their signature
CANCELLED = "_llm_cancelled"  # Cancel was clicked: said once, above the Ask button
_OK = ("correct",)
BUDGET_S = 300.0  # one click's asking in all: a shared server's worker is not held longer


class _CancelledError(Exception):
    """The user acted while an answer streamed: asking stops, the answers so far stay."""


def _interrupted() -> bool:
    """A rerun is waiting (Cancel, or any other widget), or the browser's session closed. A
    click inside the fragment this tab runs in does not stop a running script (Streamlit
    queues fragment reruns), so the loop looks for it itself: between answers, between an
    answer's words, and every quarter of a second while a request waits for its reply."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        context = get_script_run_ctx()
        requests = getattr(context, "script_requests", None)
        if getattr(getattr(requests, "_state", None), "name", "") in ("RERUN", "STOP"):
            return True
        return context is not None and Runtime.exists() and \
            not Runtime.instance().is_active_session(context.session_id)
    except Exception:  # a Streamlit without these internals: Cancel waits for the run
        return False


@dataclass
class _Progress:
    done: int
    total: int
    bar: Any


def _template() -> str:
    """The template typed, or the article's in the page's language (also after the language
    changed under the untouched template of the other one)."""
    typed = str(ss.get("llm_template") or "")
    if not typed.strip() or typed in (default_template(code) for code in LANGUAGES):
        return default_template(lang())
    return typed


def preview(analysis: Analysis, position: int) -> tuple[str, str] | None:
    """The prompt the preview shows when the template was edited or a budget is set (None:
    the article's, as ``presentation.prompt_text`` makes it), with the budget's cut said."""
    template, budget = _template(), ss.get("llm_budget") or None
    if template == default_template(lang()) and budget is None:
        return None
    try:
        check_template(template)
    except KeyedError:
        return None
    model = str(ss.get("llm_model") or "").strip().removeprefix("openai:")
    outcome = analysis.outcomes[position]
    built = build_llm_prompt(outcome.question.question, analysis.chunks,
                             sent_hits(analysis, outcome), template, token_counter(model),
                             budget)
    if built is None:
        return None
    cut = "" if built.cut_at is None else tr("llm.app.cut", budget=budget,
                                             kept=Grouped(built.cut_at), counter=built.counter)
    return built.text, cut


def _settings() -> dict[str, Any]:
    """The LLM's settings as the session holds them now (the key among them: never shown)."""
    return {"name": str(ss.get("llm_model") or "").strip(), "template": _template(),
            "base": str(ss.get("llm_base") or "").strip() or None,
            "key": str(ss.get("llm_api_key") or "").strip() or None,
            "max_tokens": ss.get("llm_max_tokens") or None,
            "budget": ss.get("llm_budget") or None, "cache": ss.setdefault(CACHE, {}),
            "models": ss.setdefault(MODELS, {})}


def _chat_model(given: dict[str, Any]) -> ChatModel:
    """The settings' chat model, made once per settings in the session (making its client
    takes about 0.1 s: too long for every floor step of a page with answers)."""
    key = given["key"]
    signature = (given["name"], given["base"], given["max_tokens"],
                 hashlib.sha256(key.encode()).hexdigest() if key else None)
    models: dict[tuple[Any, ...], ChatModel] = given["models"]
    if signature not in models:
        model = ChatModel(parse_llm_name(given["name"]), given["base"], key,
                          max_tokens=given["max_tokens"])
        models.clear()
        models[signature] = model
    return models[signature]


def _asker(quiet: bool = False, settings: dict[str, Any] | None = None) -> Asker | None:
    """The asker the settings describe (the session's now, else ``settings``), or None (no
    model, or a sentence said why, unless ``quiet``)."""
    given = settings or _settings()
    if not given["name"]:
        return None
    try:
        model = _chat_model(given)
        check_template(given["template"])
    except KeyedError as error:
        if not quiet:
            st.error(error.localized(lang()))
        return None
    cache: dict[tuple[str, str], ChatAnswer | LLMError] = given["cache"]
    return Asker(model, given["template"], token_counter(model.model), given["budget"],
                 cache=cache, budget_s=BUDGET_S)


def settings_asker() -> Asker | None:
    """The asker the LLM settings describe now, said nothing when there is none (the
    question generator's model)."""
    return _asker(quiet=True)


def interrupted() -> bool:
    """A rerun is waiting: a loop that calls the model stops between calls."""
    return _interrupted()


def has_answers() -> bool:
    """Some answer is kept in this session (a download of them is worth offering)."""
    return any(isinstance(kept, ChatAnswer) for kept in (ss.get(CACHE) or {}).values())


def kept_sets(analyses: Sequence[Analysis | None]) -> Callable[[], list[AnswerSet | None]]:
    """A function giving each analysis's kept answers (None: none kept), never asking: the
    settings are read now, the prompts built when it is called (a download's click)."""
    settings = _settings() if has_answers() else None

    def sets() -> list[AnswerSet | None]:
        asker = None if settings is None else _asker(quiet=True, settings=settings)
        if asker is None:
            return [None] * len(analyses)
        return [None if a is None else kept_answers(a, asker) for a in analyses]

    return sets


def settings() -> None:
    """The LLM's settings, folded in the sidebar: on the page, even folded, they pushed the
    first question's bars below a projector's fold."""
    with st.expander(tr("llm.app.settings"), expanded=False):
        if not str(ss.get("llm_model") or "").strip():  # how to start, inside the fold: on
            st.info(tr("llm.app.none"))  # the page it pushed the bars below the fold
        # one column: two in a sidebar cut the values ("http://localhost:1…") and labels
        st.text_input(tr("llm.app.model"), key="llm_model", placeholder="openai:llama3.2")
        st.text_input(tr("llm.app.base"), key="llm_base",
                      placeholder="http://localhost:11434/v1")
        st.text_input(tr("llm.app.key"), key="llm_api_key", type="password",
                      autocomplete="off", help=tr("llm.app.key_help"))
        st.number_input(tr("llm.app.max_tokens"), key="llm_max_tokens", min_value=1,
                        max_value=100_000, value=None, step=1)
        st.number_input(tr("llm.app.budget"), key="llm_budget", min_value=1,
                        max_value=1_000_000, value=None, step=1)
        if "llm_template" not in ss:
            ss["llm_template"] = default_template(lang())
        st.text_area(tr("llm.app.template"), key="llm_template", height=180)


def llm_panel(frame: Frame, positions: list[int]) -> Asker | None:
    """Ask (or Cancel while asking) with the progress bar, once a model is set in the
    sidebar (``settings``); the asker."""
    asker = _asker()
    if asker is None:
        ss[ASKING] = False
        return None
    todo = sum(1 for position in positions for current in frame.analyses.values()
               if current is not None and position < len(current.outcomes)
               and _pending(asker, current, position))
    if ss.get(ASKING) and todo:
        st.button(tr("llm.app.cancel"), key="llm_cancel", on_click=_stop)
        ss[PROGRESS] = _Progress(0, todo, st.progress(0.0, tr("llm.app.progress", done=0,
                                                                total=todo)))
    else:
        ss[ASKING] = False
        if ss.pop(CANCELLED, False):
            st.info(tr("llm.app.cancelled", base=md(asker.model.api_base)))
        st.button(tr("llm.app.ask", n=todo), key="llm_ask", on_click=_start,
                  disabled=not todo, type="primary")
    return asker


def _start() -> None:
    ss[ASKING] = True


def _stop() -> None:
    ss[ASKING] = False
    ss[CANCELLED] = True


def _prompt(asker: Asker, analysis: Analysis, position: int) -> str | None:
    """The prompt the question sends (None: the floor refused, nothing is sent)."""
    outcome = analysis.outcomes[position]
    built = build_llm_prompt(outcome.question.question, analysis.chunks,
                             sent_hits(analysis, outcome), asker.template, asker.counter,
                             asker.budget)
    return None if built is None else built.text


def _pending(asker: Asker, analysis: Analysis, position: int) -> bool:
    """The question has a prompt whose answer is not kept yet."""
    prompt = _prompt(asker, analysis, position)
    return prompt is not None and not isinstance(asker.cache.get((asker.model.name, prompt)),
                                                 ChatAnswer)


def answer_slot(asker: Asker | None, analysis: Analysis, position: int) -> None:
    """The answer of one question under one configuration: kept, asked now (streamed)
    while asking, or nothing yet."""
    if asker is None:
        return
    outcome = analysis.outcomes[position]
    pending = _pending(asker, analysis, position)
    if ss.get(ASKING) and _interrupted():
        ss[ASKING] = False
    asking = bool(ss.get(ASKING)) and pending
    failures: dict[tuple[str, str], LLMError] = ss.setdefault(FAILED_NOW, {})
    if pending and not asking:
        error = failures.get((asker.model.name, _prompt(asker, analysis, position) or ""))
        if error is not None:
            st.markdown(f"**LLM** · :red[{md(error.localized(lang()))}]")
        return
    place = st.empty()
    pieces: list[str] = []

    def show(piece: str) -> None:
        if _interrupted():
            raise _CancelledError
        pieces.append(piece)
        place.markdown(f"**LLM** · {as_text(''.join(pieces))}")

    try:  # Cancel, or the session closing, ends even a silent request within a second
        result = answer_one(analysis, outcome, asker, show if asking else None, _interrupted)
    except _CancelledError:
        result = None
    if result is None or (result.error is not None and result.error.key == "llm.cancelled"):
        ss[ASKING] = False
        place.empty()
        return
    if asking:
        _advance()
    if result.error is not None and result.prompt is not None:
        failures[asker.model.name, result.prompt.text] = result.error
    place.markdown(_said(result))


def _said(result: LLMResult) -> str:
    """The verdict in its colour, and the answer (or the failure's sentence)."""
    if result.verdict == FAILED:
        return f"**LLM** · :red[{md(render(result.error, lang()))}]"
    if result.verdict == WRONG_CHUNK:
        verdict = tr(f"llm.verdict.{WRONG_CHUNK}", chunk=f"#{result.chunk}")
    else:
        verdict = tr(f"llm.verdict.{result.verdict}")
    colour = "green" if result.verdict in _OK else "gray" if result.verdict == NOT_ASKED \
        else "red"
    answer = f" — {as_text(result.answer)}" if result.answer is not None else ""
    reply = result.reply
    cut = "" if reply is None or reply.cut_at is None else \
        f" ({md(tr('llm.app.answer_cut', n=reply.cut_at))})"
    return f"**LLM** · :{colour}[{md(verdict)}]{answer}{cut}"


_LINK_STARTS = re.compile(r"(?i)(?<=http)(?=\\:)|(?<=https)(?=\\:)|(?<=www)(?=\\\.)|(?<=\\@)")


def as_text(answer: str) -> str:
    """A model's answer as Markdown that shows it as plain text: escaped (``md``), and with an
    invisible word joiner where a link would start (``http:``, ``www.``, ``@``), so that the
    Markdown renderer's autolinks make no link of a bare URL or address in it."""
    return _LINK_STARTS.sub("\u2060", md(answer))


def _advance() -> None:
    progress = ss.get(PROGRESS)
    if not isinstance(progress, _Progress):
        return
    progress.done += 1
    progress.bar.progress(min(1.0, progress.done / progress.total),
                          tr("llm.app.progress", done=progress.done, total=progress.total))


def finish() -> None:
    """After the questions were drawn: asking is over (every pending one was asked)."""
    if ss.get(ASKING):
        ss[ASKING] = False
        ss.pop(PROGRESS, None)
        st.rerun()  # the button reads "Ask" again, the count of pending answers at 0
