"""The one bounded LRU cache (ragviz/cache.py) that the embedding, token, tokenizer-id and
upload caches share: least recently used dropped first, by count or by weight."""

from __future__ import annotations

from ragviz import cache as cache_module
from ragviz.cache import BoundedCache
from ragviz.embedding.base import EmbeddingCache, TokenInfoCache
from ragviz.inputs import corpus


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert ("a" in cache, "b" in cache, "c" in cache) == (True, False, True)
    assert (cache.hits, cache.misses, len(cache)) == (1, 0, 2)
    assert cache.get("b") is None and cache.misses == 1


def test_a_weight_bound_counts_weights_and_skips_an_entry_heavier_than_it() -> None:
    cache: BoundedCache[str, int] = BoundedCache(10, weight=lambda text, _v: len(text))
    cache.put("aaaa", 1)
    cache.put("bbbb", 2)
    cache.put("cccc", 3)  # 12 > 10: "aaaa" goes
    assert [k in cache for k in ("aaaa", "bbbb", "cccc")] == [False, True, True]
    cache.put("x" * 11, 4)
    assert "x" * 11 not in cache and len(cache) == 2
    cache.put("bbbb", 5)  # a new value for a kept key weighs once
    cache.put("dd", 6)
    assert [k in cache for k in ("bbbb", "cccc", "dd")] == [True, True, True]
    cache.clear()
    assert (len(cache), cache.hits, cache.misses) == (0, 0, 0)


def test_the_hand_written_caches_are_this_one() -> None:
    assert isinstance(EmbeddingCache(3), BoundedCache) and EmbeddingCache(3).max_entries == 3
    assert isinstance(TokenInfoCache(3), BoundedCache)
    assert isinstance(corpus._LOADED, BoundedCache)
    assert cache_module.BoundedCache is BoundedCache
