"""Retrieval: scores and the decision.

In: chunks and questions (their vectors). Out: one score row per question, and a
``Decision`` per question: the top_k chunks at or above the floor, or a refusal;
the prompt a model would receive.
"""

# The scorers beyond cosine register themselves on import (one line each).
from ragviz.retrieval import bm25, hybrid, rerank  # noqa: F401
