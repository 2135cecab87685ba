"""One bounded, thread-safe least-recently-used cache for every stage that keeps results
between calls (vectors, token facts, tokenizer ids, converted uploads): bounded by a count
of entries, or by a weight per entry (the characters of a cached text)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _one(_key: object, _value: object) -> int:
    return 1


class BoundedCache(Generic[K, V]):
    """The least recently used entries are dropped once the entries weigh more than
    ``max_weight`` (by default each weighs 1, so the bound is a count); an entry heavier
    than the bound on its own is not kept."""

    def __init__(self, max_weight: int, weight: Callable[[K, V], int] = _one) -> None:
        self.max_weight = max_weight
        self._weight = weight
        self._data: OrderedDict[K, V] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._data:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return self._data[key]

    def put(self, key: K, value: V) -> None:
        weight = self._weight(key, value)
        with self._lock:
            if key in self._data:
                self._total -= self._weight(key, self._data.pop(key))
            if weight > self.max_weight:
                return
            self._data[key] = value
            self._total += weight
            while self._total > self.max_weight:
                old_key, old_value = self._data.popitem(last=False)
                self._total -= self._weight(old_key, old_value)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._total = 0
            self.hits = self.misses = 0
