"""Embedding: texts to unit vectors.

In: chunk and question texts. Out: float32 arrays of unit rows from one ``Embedder``
interface (``base``), cached by model and text; the bundled and sentence-transformers
models and the registry that loads them by name (``models``); OpenAI-compatible APIs
(``openai_api``).
"""
