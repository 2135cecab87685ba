"""ragviz explorer: the file ``streamlit run`` and Streamlit Community Cloud start.

The page lives in the ``ragviz_app`` package (a frame plus one module per view); the
installed ``ragviz app`` command runs the same entry through ``ragviz_app/entry.py``.
"""

from ragviz_app.main import main

main()
