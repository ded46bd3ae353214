"""Learn BLEU step by step (being built)."""

import streamlit as st

st.title("Learn")
