"""Chunk and question vectors drawn in two dimensions: the map of the embedding space.

``planar`` fits a projection on the chunk vectors (PCA with numpy, or UMAP when installed)
and places questions with it without moving the chunks; ``space`` turns a projection and
the analyses into points and lines (facts, no sentences) that the app, the report and the
replay draw.
"""
