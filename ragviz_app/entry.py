"""The script the installed ``ragviz app`` command hands to ``streamlit run``: the same page
as the repository's ``streamlit_app.py``, found inside the installed package."""

from ragviz_app.main import main

main()
