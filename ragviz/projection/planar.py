"""Two-dimensional projections of chunk vectors, fitted once and reused.

A projection is fitted on the chunk vectors only; questions are *placed* with it, so adding
a question never moves a chunk. PCA (numpy) is instant and deterministic: each axis is
signed so that its largest loading is positive. UMAP (``umap-learn``, the ``map`` extra) is
fitted with a fixed random state on exact cosine neighbours computed here (numpy), which
spares pynndescent's minute of compilation on 10,000 chunks; a question is placed where
UMAP's own transform starts it, at the weighted mean of its nearest chunks' positions.

Fitted projections are cached by a digest of the chunk vectors, so a floor or top_k move
(same vectors) reuses the fit.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ragviz.cache import BoundedCache
from ragviz.errors import MissingLibraryError
from ragviz.projection.numba_cache import cache_umap_compiles

Vectors = npt.NDArray[np.float32]
Points = npt.NDArray[np.float64]
Progress = Callable[[float], None]  # the share done, 0..1; raising stops the fit

PCA = "pca"
UMAP = "umap"
METHODS = (PCA, UMAP)
MAP_EXTRA = "pip install 'ragviz[map]'"
RANDOM_STATE = 42  # the UMAP picture is the same on every rerun and every machine
NEIGHBOURS = 15  # UMAP's default n_neighbors
UMAP_EPOCHS = 200  # what UMAP itself uses above 10,000 points; 500 below doubles the time
MIN_UMAP_CHUNKS = 8  # below this UMAP has no neighbourhood to learn: PCA is drawn
REDUCED_DIMS = 50  # UMAP runs on the first 50 principal components (its docs' advice)


def umap_available() -> bool:
    """Whether ``umap-learn`` can be imported (without importing it: numba is slow)."""
    import importlib.util

    return importlib.util.find_spec("umap") is not None


@dataclass(frozen=True)
class Projection:
    """A fitted projection: the chunks' 2-D positions, and what placing a new vector needs
    (PCA: the mean and the two axes; UMAP: the reference vectors and their positions)."""

    method: str
    chunk_xy: Points
    mean: Vectors = field(repr=False)
    axes: Vectors = field(repr=False)  # (2, d) for PCA; (k, d) principal axes for UMAP
    reference: Vectors | None = field(default=None, repr=False)  # reduced chunk vectors

    def place(self, vectors: Vectors) -> Points:
        """Positions of new vectors (questions): the chunks' positions are left as they are."""
        if len(vectors) == 0:
            return np.zeros((0, 2))
        reduced = (np.asarray(vectors, dtype=np.float32) - self.mean) @ self.axes.T
        if self.reference is None:
            return reduced.astype(np.float64)
        return _weighted_neighbours(_unit(reduced), self.reference, self.chunk_xy)


def _unit(rows: npt.NDArray[np.floating]) -> Vectors:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.where(norms == 0, 1.0, norms)).astype(np.float32)


def one_blas_thread() -> AbstractContextManager[object]:
    """BLAS on one thread for the block inside: on a shared 2-core server OpenBLAS's
    threads fight the other sessions (a 512 x 512 eigh took 2.4 s at load 15, 0.18 s on one
    thread). threadpoolctl comes with scikit-learn (sentence-transformers needs it)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - without it BLAS keeps its own threads
        return nullcontext()
    limits: AbstractContextManager[object] = threadpool_limits(1, user_api="blas")
    return limits


def principal_axes(vectors: Vectors, count: int) -> tuple[Vectors, Vectors]:
    """The mean and the first ``count`` principal axes (rows), each signed so that its
    largest loading is positive: the same picture whatever the eigen solver's sign."""
    data = np.asarray(vectors, dtype=np.float32)
    mean = data.mean(axis=0, dtype=np.float64)
    centred = data - mean.astype(np.float32)
    with one_blas_thread():  # the scatter in float32 (half the time), solved in float64
        _, eigvecs = np.linalg.eigh((centred.T @ centred).astype(np.float64))
    axes = eigvecs[:, ::-1][:, :count].T.copy()
    for row in axes:
        if row[np.argmax(np.abs(row))] < 0:
            row *= -1
    if axes.shape[0] < count:  # fewer dimensions than axes wanted: pad with zero axes
        axes = np.vstack([axes, np.zeros((count - axes.shape[0], data.shape[1]))])
    return mean.astype(np.float32), axes.astype(np.float32)


def fit_pca(vectors: Vectors) -> Projection:
    """The plane of the two directions along which the chunk vectors vary most."""
    vectors = _checked(vectors)
    mean, axes = principal_axes(vectors, 2)
    return Projection(PCA, ((vectors - mean) @ axes.T).astype(np.float64), mean, axes)


def _checked(vectors: Vectors) -> Vectors:
    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim != 2 or len(array) == 0:
        raise ValueError(f"a projection needs a (chunks, dimensions) array, got {array.shape}")
    return array


def nearest(queries: Vectors, reference: Vectors, k: int) -> tuple[npt.NDArray[np.int64],
                                                                   Vectors]:
    """The ``k`` nearest reference rows of every query row by cosine distance (unit rows),
    in blocks so 10,000 x 10,000 similarities never sit in memory at once."""
    k = min(k, len(reference))
    indices = np.empty((len(queries), k), dtype=np.int64)
    distances = np.empty((len(queries), k), dtype=np.float32)
    for start in range(0, len(queries), 1024):
        with one_blas_thread():
            sims = queries[start:start + 1024] @ reference.T
        order = (np.argsort(-sims, axis=1, kind="stable") if k == sims.shape[1]
                 else np.argpartition(-sims, k - 1, axis=1)[:, :k])
        picked = np.take_along_axis(sims, order, 1)
        order = np.take_along_axis(order, np.argsort(-picked, axis=1, kind="stable"), 1)
        indices[start:start + 1024] = order
        distances[start:start + 1024] = np.maximum(0.0, 1.0 - np.take_along_axis(sims, order, 1))
    return indices, distances


def _weighted_neighbours(queries: Vectors, reference: Vectors, positions: Points) -> Points:
    """UMAP's transform start: the mean of the nearest chunks' positions, weighted by
    exp(-(d - d_nearest) / spread) as UMAP's fuzzy memberships weigh them."""
    indices, distances = nearest(queries, reference, NEIGHBOURS)
    gaps = distances - distances[:, :1]
    spread = np.maximum(gaps.mean(axis=1, keepdims=True), 1e-6)
    weights = np.exp(-gaps / spread)
    weights /= weights.sum(axis=1, keepdims=True)
    placed: Points = np.einsum("qk,qkd->qd", weights, positions[indices])
    return placed


def fit_umap(vectors: Vectors, progress: Progress | None = None) -> Projection:
    """UMAP of the chunk vectors (cosine neighbours, fixed random state); PCA when there
    are fewer than ``MIN_UMAP_CHUNKS`` chunks. ``progress`` hears the share done."""
    vectors = _checked(vectors)
    if len(vectors) < MIN_UMAP_CHUNKS:
        return fit_pca(vectors)
    try:
        import umap
    except ImportError as error:
        raise MissingLibraryError(f"UMAP needs umap-learn: {MAP_EXTRA}") from error
    cache_umap_compiles()
    report = progress or (lambda _share: None)
    report(0.0)
    mean, axes = principal_axes(vectors, min(REDUCED_DIMS, vectors.shape[1]))
    reduced = _unit((vectors - mean) @ axes.T)
    k = min(NEIGHBOURS, len(vectors) - 1)
    indices, distances = nearest(reduced, reduced, k)
    report(0.2)
    model = umap.UMAP(n_components=2, n_neighbors=k, metric="cosine", n_epochs=UMAP_EPOCHS,
                      random_state=RANDOM_STATE, precomputed_knn=(indices, distances, None),
                      tqdm_kwds={"disable": False, "file": _EpochWriter(report),
                                 "bar_format": "{n}/{total}", "mininterval": 0,
                                 "miniters": UMAP_EPOCHS // 40})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "n_jobs overridden by random_state" and the like
        xy = model.fit_transform(reduced)
    report(1.0)
    return Projection(UMAP, np.asarray(xy, dtype=np.float64), mean, axes, reduced)


def warm_umap() -> None:
    """Fit one small UMAP so numba writes its compiled functions to disk (install step)."""
    rows = np.random.default_rng(0).standard_normal((4 * MIN_UMAP_CHUNKS, 16))
    fit_umap(_unit(rows))


class _EpochWriter:
    """A file for tqdm: reads "n/total" from UMAP's epoch bar into a share of 0.25..1."""

    def __init__(self, report: Progress) -> None:
        self.report = report

    def write(self, text: str) -> None:
        done, _, total = text.strip().partition("/")
        if done.isdigit() and total.isdigit() and int(total):
            self.report(0.25 + 0.75 * int(done) / int(total))

    def flush(self) -> None:
        return None


FITTERS: dict[str, Callable[[Vectors, Progress | None], Projection]] = {
    PCA: lambda vectors, _progress: fit_pca(vectors),
    UMAP: fit_umap,
}
CACHE: BoundedCache[tuple[str, str], Projection] = BoundedCache(16)


def vectors_key(vectors: Vectors) -> str:
    """A digest of the chunk vectors (shape and bytes): the projection's cache key."""
    array = np.ascontiguousarray(vectors, dtype=np.float32)
    digest = hashlib.blake2b(repr(array.shape).encode(), digest_size=16)
    digest.update(array.tobytes())
    return digest.hexdigest()


def cached(vectors: Vectors, method: str) -> Projection | None:
    """The projection already fitted on these vectors with ``method``, or None."""
    return CACHE.get((method, vectors_key(vectors)))


def project(vectors: Vectors, method: str = PCA, progress: Progress | None = None) -> Projection:
    """The ``method`` projection of ``vectors``, fitted once per distinct set of vectors."""
    if method not in FITTERS:
        raise ValueError(f"unknown projection {method!r}; choose one of {', '.join(METHODS)}")
    key = (method, vectors_key(vectors))
    found = CACHE.get(key)
    if found is None:
        found = FITTERS[method](vectors, progress)
        CACHE.put(key, found)
    return found
