"""The server keeps its libraries and models out of Python's full collections
(``ragviz_app.heap``): Streamlit collects every generation after each run, a floor step's
fragment run included, and walking them held the GIL ~0.1 s per step. Checked in the real
process: what was frozen is no longer among the objects a collection walks, what comes after
is still collected."""

from __future__ import annotations

import gc
import uuid
import weakref

from ragviz.embedding.models import DEFAULT_MODEL
from ragviz_app import heap, models
from tests.test_app import run_app


class Node:
    """A weak-referenceable object that can hold itself (a reference cycle)."""

    me: Node | None = None


def walked(obj: object) -> bool:
    """Whether a full collection looks at ``obj`` (frozen objects are in no generation)."""
    return any(o is obj for o in gc.get_objects())


def cyclic_garbage() -> weakref.ref[Node]:
    """A reference cycle nothing else holds: only the cycle collector can free it."""
    node = Node()
    node.me = node
    return weakref.ref(node)


def test_settle_freezes_what_is_alive_then_only_for_a_new_model() -> None:
    alive = Node()
    assert walked(alive)
    name = f"model-{uuid.uuid4()}"
    assert heap.settle({name})  # a model not frozen before: collect, then freeze
    assert not walked(alive)
    assert not heap.settle({name})  # nothing new: no second collection
    later = Node()
    assert walked(later)
    assert heap.settle({name, f"model-{uuid.uuid4()}"})
    assert not walked(later)


def test_cycles_made_after_a_freeze_are_still_collected() -> None:
    heap.settle({f"model-{uuid.uuid4()}"})
    garbage = cyclic_garbage()
    assert garbage() is not None
    gc.collect()
    assert garbage() is None


def test_after_a_page_the_loaded_model_is_out_of_the_collections() -> None:
    run_app(tab=None)
    assert f"{DEFAULT_MODEL}\0" in models.loaded_keys()
    model = models.get_model(DEFAULT_MODEL, "", None)  # the page's cached object
    parts = [part for part in vars(model).values() if gc.is_tracked(part)]  # its library model
    assert parts
    assert not any(walked(x) for x in (model, *parts))
