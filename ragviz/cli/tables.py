"""``--format md|csv``: the numbers a benchmark user pastes into a paper or a spreadsheet,
made from the same payload ``--json`` prints. ``eval``: every metric as mean ± std, the
metrics per file of the corpus (the benchmark's ``corpus_id``) and one row per question;
``compare``: each metric for A and B; ``sweep``: one row per configuration. CSV cells that
a spreadsheet would run as a formula are guarded (OWASP), as every CSV of ragviz is."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ragviz.evaluation.measures import metric_names
from ragviz.i18n import SOURCE_LANGUAGE, t
from ragviz.present.exports import guard_cell

Table = tuple[list[str], list[list[Any]]]


def tables(command: str, payload: dict[str, Any]) -> list[tuple[str, Table]]:
    """The titled tables of one command's payload (none for a command without tables)."""
    if command == "eval":
        return [("settings", _settings(payload)), ("metrics", _summary(payload["metrics"])),
                ("per_file", _per_file(payload.get("per_file", {}))),
                *_llm(payload), ("questions", _questions(payload["questions"]))]
    if command == "compare":
        names = sorted(set(payload["metrics_a"]) & set(payload["metrics_b"]) - {"labels", "std"})
        return [("metrics", (["metric", "A", "B"],
                             [[n, payload["metrics_a"][n], payload["metrics_b"][n]]
                              for n in names]))]
    if command == "sweep":
        rows = payload.get("rows", [])
        header = list(rows[0]) if rows else ["config"]
        return [("configurations", (header, [[row.get(k) for k in header] for row in rows]))]
    return []


# what the numbers were measured with: a bm25 run's tables say bm25
SETTINGS = ("model", "chunker", "scorer", "reranker", "rerank_depth", "expand", "top_k", "floor")


def _settings(payload: dict[str, Any]) -> Table:
    return ["setting", "value"], [[name, payload.get(name)] for name in SETTINGS
                                  if name in payload]


def _summary(metrics: dict[str, Any]) -> Table:
    std = metrics.get("std", {})
    rows = [[name, value, std.get(name)] for name, value in metrics.items()
            if name not in ("labels", "std") and not isinstance(value, dict)]
    return ["metric", "mean", "std"], rows


def _per_file(per_file: dict[str, dict[str, Any]]) -> Table:
    """Each file's metrics (``metrics_per_file``: the questions whose excerpts lie in it)."""
    names = metric_names()  # the registry's, a metric registered from outside too
    header = ["file", "questions", *names]
    return header, [[name, m.get("answerable"), *[m.get(k) for k in names]]
                    for name, m in per_file.items()]


def _questions(questions: Sequence[dict[str, Any]]) -> Table:
    # the registered metrics a question's payload holds a value of (the token metrics)
    per_question = [name for name in metric_names() if any(name in q for q in questions)]
    header = ["question", "labels", "answer_rank", *per_question]
    llm = any("llm" in q for q in questions)  # --llm: each answer, its verdict and chunk
    return header + (list(LLM_COLUMNS) if llm else []), [
        [q["question"], " ".join(q.get("labels", [])),
         (q.get("diagnosis") or {}).get("answer_rank"), *[q.get(m) for m in per_question],
         *([(q.get("llm") or {}).get(c.removeprefix("llm_")) for c in LLM_COLUMNS]
           if llm else [])] for q in questions]


LLM_COLUMNS = ("llm_verdict", "llm_chunk", "llm_answer", "llm_error")


def _llm(payload: dict[str, Any]) -> list[tuple[str, Table]]:
    """--llm: the answers' metrics (accuracy, the model's refusal precision and recall,
    calls, tokens) as one table."""
    metrics = (payload.get("llm") or {}).get("metrics")
    if not metrics:
        return []
    return [("llm", (["metric", "value"], [[name, value] for name, value in metrics.items()
                                          if name != "verdicts"]))]


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def markdown(titled: Sequence[tuple[str, Table]], lang: str = SOURCE_LANGUAGE) -> str:
    """Each table under a heading in ``lang`` (``cli.table.<id>``), cells with ``|`` and line
    breaks escaped."""
    out: list[str] = []
    for title, (header, rows) in titled:
        out += [f"### {t(f'cli.table.{title}', lang)}", "", "| " + " | ".join(header) + " |",
                "|" + "|".join("---" for _ in header) + "|"]
        for row in rows:
            cells = (_shown(v).replace("|", "\\|").replace("\n", " ") for v in row)
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def csv_text(titled: Sequence[tuple[str, Table]]) -> str:
    """The command's main table as CSV (eval: one row per question; the metrics summary and
    the per-file table are in ``--format md``)."""
    header, rows = titled[-1][1]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([guard_cell(_shown(v), isinstance(v, int | float)) for v in row])
    return buffer.getvalue()
