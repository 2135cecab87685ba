"""ragviz: see why retrieval in a RAG pipeline returns the wrong passage."""

__version__ = "0.1.0"
