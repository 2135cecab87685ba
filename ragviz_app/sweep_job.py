"""The app's sweep as a background job: one thread per session running the CLI's path
(``ragviz.evaluation.sweeping.run_sweep``), reporting each configuration done, stopped
between configurations (and between embedding batches) by Cancel with the rows finished kept.

The thread makes no st.* call: it fills its own fields, which the sweep view polls (a
fragment that redraws every second) and collects once the job has ended.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from ragviz.evaluation.results import SweepResult
from ragviz.evaluation.sweeping import StepReport, Stop, SweepStep
from ragviz_app.jobs import CancelToken, ThreadedJob

THREAD_NAME = "ragviz-sweep"
Work = Callable[[StepReport, Stop], SweepResult]


@dataclass
class SweepJob(ThreadedJob):
    """One sweep: ``step`` is the last progress report, ``result`` the rows (all of them,
    or those finished before Cancel), ``error`` what stopped it otherwise."""

    signature: Hashable
    total: int
    token: CancelToken = field(default_factory=CancelToken)
    step: SweepStep | None = None
    result: SweepResult | None = None
    error: Exception | None = None
    _thread: threading.Thread | None = None

    def start(self, work: Work) -> SweepJob:
        self._thread = threading.Thread(target=self._run, args=(work,), name=THREAD_NAME,
                                        daemon=True)
        self._thread.start()
        return self

    def _run(self, work: Work) -> None:
        try:
            self.result = work(self.report, self.stopped)
        except Exception as error:  # a background sweep must never crash the server
            self.error = error

    def report(self, step: SweepStep) -> None:
        self.step = step

    def stopped(self) -> bool:
        return self.token.cancelled

    def cancel(self) -> None:
        """Stop before the next configuration (returns at once)."""
        self.token.cancel()

    @property
    def cancelled(self) -> bool:
        return self.token.cancelled
