"""Peer page for bench/workshop_load.py: fourteen one-layer Altair bar charts of five bars in
two columns, under a heading each (ragviz's first tab draws fourteen charts of five layers)."""

import altair as alt
import pandas as pd
import streamlit as st

st.title("Fourteen small charts")
scores = pd.DataFrame(
    {"chunk": [f"#{i}" for i in range(5)], "score": [0.45, 0.43, 0.32, 0.29, 0.02]}
)
chart = alt.Chart(scores).mark_bar().encode(x="score", y="chunk")
for column in st.columns(2):
    with column:
        for question in range(1, 8):
            st.markdown(f"#### {question}. A question")
            st.altair_chart(chart, width="stretch")
