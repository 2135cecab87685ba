"""ragviz's Python API: the pipeline the CLI and the app run, called from a notebook with
your own corpus, questions, splitter, retriever or vector store.

    import ragviz
    result = ragviz.evaluate(["docs/"], "questions.csv", chunker="fixed", size=500)
    result.metrics, result.to_pandas(), result.chart(0), result.explain(0)
"""

from __future__ import annotations

from ragviz.api.calls import calibrate, chunk, evaluate, sweep
from ragviz.api.evaluation import Chunks, Evaluation
from ragviz.evaluation.calibration import Calibration
from ragviz.evaluation.results import Comparison, SweepResult

__all__ = ["Calibration", "Chunks", "Comparison", "Evaluation", "SweepResult", "calibrate",
           "chunk", "evaluate", "sweep"]
