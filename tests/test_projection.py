"""The map's projection (ragviz.projection): deterministic, questions placed without moving
the chunks, the right shapes, a sample that keeps the chunks the lines end on, and points and
lines built from real analyses of the article's sample on the bundled model."""

from __future__ import annotations

import numpy as np
import pytest

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse, encode_questions, rescore
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.projection import planar, space
from ragviz.share.workspace import DEFAULT_CONFIG_A, DEFAULT_CONFIG_B


def unit_rows(n: int, d: int = 32, seed: int = 1) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def pair(use_model: Embedder, seed_doc: str,
         seed_questions: list[LabelledQuestion]) -> tuple[Analysis, Analysis]:
    return (analyse(seed_doc, DEFAULT_CONFIG_A, use_model, seed_questions),
            analyse(seed_doc, DEFAULT_CONFIG_B, use_model, seed_questions))


def test_pca_is_deterministic_and_signed_whatever_the_row_order() -> None:
    vectors = unit_rows(60)
    first, again = planar.fit_pca(vectors), planar.fit_pca(vectors.copy())
    assert np.array_equal(first.chunk_xy, again.chunk_xy)
    flipped = planar.fit_pca(vectors[::-1].copy())  # same cloud, other order: same axes
    assert np.allclose(flipped.chunk_xy[::-1], first.chunk_xy, atol=1e-4)
    for axis in first.axes:
        assert axis[np.argmax(np.abs(axis))] > 0


def test_pca_keeps_the_two_widest_directions() -> None:
    rng = np.random.default_rng(3)
    vectors = np.zeros((200, 10), dtype=np.float32)
    vectors[:, 4] = rng.normal(scale=10, size=200)
    vectors[:, 7] = rng.normal(scale=3, size=200)
    vectors[:, 1] = rng.normal(scale=0.1, size=200)
    projection = planar.fit_pca(vectors)
    assert abs(projection.axes[0][4]) > 0.99 and abs(projection.axes[1][7]) > 0.99
    assert projection.chunk_xy.shape == (200, 2)


@pytest.mark.parametrize("method", planar.METHODS)
def test_placing_questions_moves_no_chunk_and_has_one_point_each(method: str) -> None:
    vectors = unit_rows(40)
    projection = planar.project(vectors, method)
    before = projection.chunk_xy.copy()
    placed = projection.place(unit_rows(5, seed=9))
    assert placed.shape == (5, 2) and np.isfinite(placed).all()
    assert np.array_equal(projection.chunk_xy, before)
    assert planar.project(vectors, method) is projection, "fitted once per set of vectors"
    assert projection.place(np.zeros((0, 32), dtype=np.float32)).shape == (0, 2)


def test_a_question_equal_to_a_chunk_lands_on_that_chunk_under_pca() -> None:
    vectors = unit_rows(30)
    projection = planar.fit_pca(vectors)
    assert np.allclose(projection.place(vectors[[7]])[0], projection.chunk_xy[7], atol=1e-5)


def test_umap_is_the_same_picture_on_a_second_fit() -> None:
    vectors = unit_rows(40, seed=5)
    first = planar.fit_umap(vectors)
    assert first.method == planar.UMAP and first.chunk_xy.shape == (40, 2)
    assert np.allclose(planar.fit_umap(vectors).chunk_xy, first.chunk_xy)


def test_umap_reports_progress_up_to_done() -> None:
    shares: list[float] = []
    planar.fit_umap(unit_rows(30, seed=6), shares.append)
    assert shares[0] == 0.0 and shares[-1] == 1.0
    assert shares == sorted(shares) and any(0.25 < s < 1.0 for s in shares), shares


def test_too_few_chunks_for_umap_get_pca() -> None:
    assert planar.fit_umap(unit_rows(planar.MIN_UMAP_CHUNKS - 1)).method == planar.PCA


def test_an_unknown_method_and_an_empty_array_are_named() -> None:
    with pytest.raises(ValueError, match="tsne"):
        planar.project(unit_rows(5), "tsne")
    with pytest.raises(ValueError, match="chunks, dimensions"):
        planar.fit_pca(np.zeros((0, 4), dtype=np.float32))


def test_the_cache_key_follows_the_vectors_not_the_array_object() -> None:
    vectors = unit_rows(10)
    assert planar.vectors_key(vectors) == planar.vectors_key(vectors.copy())
    changed = vectors.copy()
    changed[3, 0] += 1e-3
    assert planar.vectors_key(changed) != planar.vectors_key(vectors)


def test_a_sample_keeps_every_must_keep_chunk_and_stays_at_the_limit() -> None:
    keep = {0, 5, 17_000, 19_999}
    picked = space.sample_indices(20_000, keep, limit=1_000)
    assert len(picked) == 1_000 and keep <= set(picked.tolist())
    assert np.array_equal(picked, np.sort(picked)) and len(set(picked.tolist())) == 1_000
    assert np.array_equal(picked, space.sample_indices(20_000, keep, limit=1_000))
    assert np.array_equal(space.sample_indices(50, {3}, limit=100), np.arange(50))
    too_many = set(range(0, 3_000, 2))
    assert set(space.sample_indices(20_000, too_many, limit=1_000).tolist()) == too_many


def test_the_map_of_the_article_has_every_chunk_question_and_line(
        pair: tuple[Analysis, Analysis], use_model: Embedder,
        seed_questions: list[LabelledQuestion]) -> None:
    sides = [("a", pair[0]), ("b", pair[1])]
    rows, vectors = space.fitted_rows(sides)
    drawn = space.space_map(sides, rows, planar.project(vectors),
                            encode_questions(use_model, seed_questions))
    assert len(drawn.chunks) == drawn.total == len(pair[0].chunks) + len(pair[1].chunks)
    assert not drawn.sampled
    assert [q.text for q in drawn.questions] == [q.question for q in seed_questions]
    refund_a = [link for link in drawn.links if link.side == "a" and link.question == 0]
    answer = pair[0].outcomes[0].diagnosis.holding_chunks  # type: ignore[union-attr]
    assert {(link.chunk, link.kind) for link in refund_a if link.kind == space.ANSWER} == {
        (i, space.ANSWER) for i in answer}
    top = [link for link in refund_a if link.kind != space.ANSWER]
    assert [link.chunk for link in top] == pair[0].outcomes[0].decision.ranking[:2].tolist()


def test_a_floor_or_top_k_move_fits_the_same_rows(pair: tuple[Analysis, Analysis]) -> None:
    fixed = pair[0]
    moved = rescore(fixed, RetrievalSettings(5, 0.9))
    assert space.fitted_rows([("a", fixed)], 3)[0] == space.fitted_rows([("a", moved)], 3)[0]


def test_a_sampled_map_says_so_and_keeps_the_lines_ends(
        use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]) -> None:
    long_doc = "\n\n".join(f"Seção {i}. {seed_doc}" for i in range(30))
    fixed = analyse(long_doc, DEFAULT_CONFIG_A, use_model, seed_questions,
                    RetrievalSettings(3, 0.0))
    sides = [("a", fixed)]
    keep = space.must_keep(fixed)
    rows, vectors = space.fitted_rows(sides, limit=len(keep) + 10)
    assert len(rows) == len(keep) + 10 < len(fixed.chunks)
    assert keep <= {i for _, i in rows}
    drawn = space.space_map(sides, rows, planar.fit_pca(vectors),
                            encode_questions(use_model, seed_questions))
    assert drawn.sampled and drawn.total == len(fixed.chunks)
    expected = sum(3 + len(o.diagnosis.holding_chunks if o.diagnosis else ())
                   for o in fixed.outcomes)
    assert len(drawn.links) == expected, "every line ends on a drawn chunk"


WARM_AND_COUNT = """
from numba.core.registry import CPUDispatcher
from ragviz.projection import planar
planar.warm_umap()
import umap.layouts, umap.umap_
for compiled in (umap.umap_.smooth_knn_dist, umap.umap_.compute_membership_strengths,
                 umap.layouts._nb_optimize_layout_euclidean_single_epoch):
    print(sum(compiled.stats.cache_hits.values()), sum(compiled.stats.cache_misses.values()))
"""


def test_a_second_process_loads_umaps_compiled_functions_from_disk() -> None:
    """CI time (issue 48 item 9): umap compiles its numba functions in each process unless
    they are cached on disk; after one warm-up a fresh process loads them (a hit, no miss)."""
    import os
    import subprocess
    import sys

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", WARM_AND_COUNT], capture_output=True,
                              text=True, timeout=300, check=True, env=dict(os.environ))
        return done.stdout.splitlines()[-3:]

    run()  # writes the cache if this installation has not yet
    assert run() == ["1 0"] * 3
