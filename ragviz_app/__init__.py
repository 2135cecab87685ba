"""The ragviz explorer (Streamlit): a frame every view shares plus one module per view.

Kept apart from ``ragviz`` so the core never imports Streamlit; ``streamlit_app.py`` in the
repository root and the installed ``ragviz app`` command both run :func:`ragviz_app.main.main`.
"""
