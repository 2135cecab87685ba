"""eval --also: the other retrieval settings on the same chunks. Its fixes and breaks equal
what two separate evaluations of the same questions say, question by question."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chroma_questions import chroma_questions

from ragviz.cli.command import main

HELP = Path(__file__).resolve().parents[1] / "sample_docs" / "help_center"
BASE = ["--chunker", "fixed", "--size", "200", "--overlap", "0", "--top-k", "1", "--json"]


def _eval(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    assert main(["eval", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_also_counts_what_each_setting_fixes_and_breaks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = tmp_path / "q.csv"
    questions.write_text(chroma_questions(HELP, 30), encoding="utf-8")
    common = [str(HELP), "--questions", str(questions), *BASE]
    studied = _eval([*common, "--also", "bm25", "--also", "hybrid"], capsys)
    assert [a["scorer"] for a in studied["also"]] == ["bm25", "hybrid"]
    main_ok = [q["labels"][:1] == ["ok"] for q in studied["questions"]]
    for also in studied["also"]:
        alone = _eval([*common, "--scorer", also["scorer"]], capsys)
        other_ok = [q["labels"][:1] == ["ok"] for q in alone["questions"]]
        assert also["fixes"] == sum(o and not m for m, o in zip(main_ok, other_ok, strict=True))
        assert also["breaks"] == sum(m and not o for m, o in zip(main_ok, other_ok, strict=True))
        outranked = [q["labels"][:1] in (["outranked"], ["outranked-by-other-document"])
                     for q in studied["questions"]]
        assert also["outranked_fixed"] == sum(
            b and o for b, o in zip(outranked, other_ok, strict=True))
        assert also["metrics"] == alone["metrics"]
        assert also["answer_ranks"] == [q["diagnosis"]["answer_rank"]
                                        for q in alone["questions"]]
    assert studied["also"][0]["fixes"] > 0  # on this sample BM25 fixes outranked questions
