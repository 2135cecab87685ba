"""UMAP fits in a background thread, one per distinct set of chunk vectors for the whole
server (many laptops on one sample share one fit), reporting the share done.

The thread only fills ``ragviz.projection.planar``'s cache and its own ``share``; it makes no
st.* call. The Map tab draws PCA meanwhile and polls the job (a fragment), then reruns.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from ragviz.projection import planar
from ragviz_app.jobs import ThreadedJob

THREAD_NAME = "ragviz-map"
MAX_JOBS = 8  # finished jobs kept to tell a late poll how they ended


@dataclass
class ProjectionJob(ThreadedJob):
    """One UMAP fit of ``vectors``; ``error`` is set when it failed."""

    vectors: planar.Vectors = field(repr=False)
    share: float = 0.0
    error: str | None = None
    _thread: threading.Thread | None = None

    def start(self) -> ProjectionJob:
        self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            planar.project(self.vectors, planar.UMAP, self._report)
        except Exception as error:  # a background fit must never crash the server
            self.error = str(error) or type(error).__name__
        self.share = 1.0
        self.vectors = self.vectors[:0]  # the cache holds the result: keep no 20 MB copy

    def _report(self, share: float) -> None:
        self.share = share


JOBS: dict[str, ProjectionJob] = {}
_LOCK = threading.Lock()


def umap_job(vectors: planar.Vectors) -> ProjectionJob:
    """The UMAP job of these vectors: the one running or finished, else a new one started."""
    key = planar.vectors_key(vectors)
    with _LOCK:
        job = JOBS.get(key)
        if job is None:
            job = JOBS[key] = ProjectionJob(vectors).start()
        while len(JOBS) > MAX_JOBS:
            oldest = next(k for k, j in JOBS.items() if k != key)
            if JOBS[oldest].running:
                break
            del JOBS[oldest]
    return job
