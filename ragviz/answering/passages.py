"""The passages question writing sends, spread over every file of the corpus.

A passage is a recursive chunk (paragraphs, then lines, sentences, words) of at most
``max_chars`` characters, where ``max_chars`` is the token budget times the characters per
token the model's counter measures on the corpus itself, so a passage fits the model's
context whatever the language (smaller when a small corpus would give fewer passages than
the run needs requests, down to 300 characters). The order visits every file before any
file's second passage, and inside a file goes middle first, then the middles of the
halves, and so on, so the first passages asked already span the corpus.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from ragviz.answering.prompt import TokenCounter
from ragviz.chunking.recursive import chunk_recursive
from ragviz.inputs.corpus import Corpus

DEFAULT_PASSAGE_TOKENS = 1_000  # with the template and the reply, inside a 2,048-token context
MIN_PASSAGE_TOKENS = 100
MIN_PASSAGE_CHARS = 300  # a few sentences: smaller passages leave little to ask about
_SAMPLE_CHARS = 20_000


@dataclass(frozen=True)
class Passage:
    """``corpus.source(source).text[start:end]``: what one request shows the model."""

    source: str
    start: int
    end: int
    text: str


def chars_per_token(corpus: Corpus, counter: TokenCounter) -> float:
    """Characters per token of the corpus's text as ``counter`` counts them (from its first
    20,000 characters, spread over the files)."""
    share = max(1, _SAMPLE_CHARS // max(1, len(corpus.sources)))
    sample = "\n".join(source.text[:share] for source in corpus.sources)
    tokens = counter.count(sample)
    return len(sample) / tokens if tokens else 4.0


def passage_chars(corpus: Corpus, counter: TokenCounter, tokens: int, wanted: int = 1) -> int:
    """The largest passage, in characters, that holds about ``tokens`` tokens; smaller (down
    to ``MIN_PASSAGE_CHARS``) when the corpus would otherwise give fewer than ``wanted``
    passages: each request needs a passage of its own, as a model at temperature 0 answers
    the same prompt the same way."""
    largest = max(MIN_PASSAGE_CHARS, int(tokens * chars_per_token(corpus, counter)))
    spread = corpus.total_chars // max(1, wanted)
    return max(MIN_PASSAGE_CHARS, min(largest, spread))


def _middle_first(count: int) -> Iterator[int]:
    """0..count-1, middles first: 7 -> 3, 1, 5, 0, 2, 4, 6."""
    ranges = deque([(0, count)])
    while ranges:
        low, high = ranges.popleft()
        if low >= high:
            continue
        middle = (low + high) // 2
        yield middle
        ranges.extend(((low, middle), (middle + 1, high)))


def spread_passages(corpus: Corpus, max_chars: int) -> list[Passage]:
    """Every passage of every file, in the order they are asked (see the module)."""
    per_file: list[list[Passage]] = []
    for source in corpus.sources:
        if not source.text.strip():
            continue
        chunks = chunk_recursive(source.text, size=max_chars).chunks
        per_file.append([Passage(source.name, chunks[i].start, chunks[i].end, chunks[i].text)
                         for i in _middle_first(len(chunks))])
    longest = max((len(passages) for passages in per_file), default=0)
    return [passages[rank] for rank in range(longest) for passages in per_file
            if rank < len(passages)]
