"""Peer page for bench/workshop_load.py: what any Streamlit page costs a browser (a title and
a line of text), so the cost of ragviz's own page can be told from the framework's."""

import streamlit as st

st.title("A bare Streamlit page")
st.write("A title and one line of text, nothing else: the framework's own cost per page.")
