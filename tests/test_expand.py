"""--expand: the chunks around every hit (same file) join the prompt, each once, the fix
for an answer cut between chunks; a prompt never drops text because another file's chunk
sat at the same offsets."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ragviz.chunking.base import make_chunk
from ragviz.cli.command import main
from ragviz.retrieval.decision import build_prompt, decide, excerpts, with_neighbours

TEXT = "Reembolso. O prazo é de 7 dias úteis. Suporte das 9h às 18h. Fim."
CUTS = [(0, 22), (22, 38), (38, 62), (62, len(TEXT))]  # "7 dias úteis" cut at 22


def _chunks(source: str = "") -> list:  # type: ignore[type-arg]
    return [make_chunk(TEXT, i, a, b, source=source) for i, (a, b) in enumerate(CUTS)]


def test_neighbours_join_the_prompt_in_document_order_each_once() -> None:
    chunks = _chunks()
    decision = decide(np.array([0.9, 0.1, 0.2, 0.8]), top_k=2, floor=0.0)
    hits, added = with_neighbours(chunks, decision, 1)
    assert [h.index for h in hits] == [0, 1, 2, 3]  # around #0: #0, #1; around #3: #2, #3
    assert added == (1, 2)
    prompt = build_prompt("Qual o prazo?", chunks, hits, "pt")
    assert prompt is not None and "O prazo é de 7 dias úteis." in prompt.replace("\n\n", "")
    assert with_neighbours(chunks, decision, 0) == (list(decision.hits), ())


def test_neighbours_stay_in_their_file() -> None:
    a, b = _chunks("a.txt"), [make_chunk(TEXT, 4 + i, s, e, source="b.txt")
                              for i, (s, e) in enumerate(CUTS)]
    decision = decide(np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.9, 0.0]), top_k=1, floor=0.0)
    hits, added = with_neighbours([*a, *b], decision, 1)
    assert [h.index for h in hits] == [5, 6, 7] and added == (5, 7)


def test_the_same_offsets_in_two_files_are_both_in_the_prompt() -> None:
    a = make_chunk(TEXT, 0, 0, 22, source="a.txt")
    b = make_chunk("Frete grátis acima de 200 reais, sempre.", 1, 0, 22, source="b.txt")
    decision = decide(np.array([0.9, 0.8]), top_k=2, floor=0.0)
    assert excerpts([a, b], decision.hits) == [a.text.strip(), b.text.strip()]


def test_the_cli_says_what_expand_added(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "policy.txt"
    document.write_text(TEXT, encoding="utf-8")
    questions = tmp_path / "q.csv"
    questions.write_text("question,answer\nQual o prazo do reembolso?,7 dias úteis\n",
                         encoding="utf-8")
    assert main(["eval", str(document), "--questions", str(questions), "--chunker", "fixed",
                 "--size", "22", "--overlap", "0", "--top-k", "1", "--expand", "1",
                 "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["expand"] == 1
    row = payload["questions"][0]
    hit = row["hits"][0]["index"]
    assert row["expanded"] == [i for i in (hit - 1, hit + 1) if 0 <= i < payload["chunks"]]
    with pytest.raises(SystemExit) as refused:  # argparse refuses an option value by exiting
        main(["eval", str(document), "--questions", str(questions), "--expand", "9"])
    assert refused.value.code == 2
    assert "give a number from 0 to 5" in capsys.readouterr().err
