"""A new document past the chunk limit for one configuration embeds nothing for the other
until the user picks sizes (issue 45): the default configuration of a large upload is not
a choice, and embedding it took minutes while its twin was refused."""

from __future__ import annotations

from collections.abc import Iterable

from ragviz.chunking import ChunkerConfig
from ragviz.inputs.corpus import Corpus
from ragviz_app import app_state as state
from ragviz_app.common import ss

HELD = "_held_sizes"  # (document key, the configurations refused; None once the user moved)
TOO_MANY = "input.too_many_chunks"


def held(document: str | Corpus, sizes: Iterable[ChunkerConfig | None]) -> bool:
    """Whether a side refused for its chunk count holds the other's embedding back: yes on
    the first run of ``document`` and for as long as the configurations stay as they were
    then; once the user changed one, never again for this document."""
    key, now = state.document_key(document), tuple(sizes)
    before = ss.get(HELD)
    if before is None or before[0] != key:
        ss[HELD] = (key, now)
        return True
    if before[1] == now:
        return True
    ss[HELD] = (key, None)
    return False
