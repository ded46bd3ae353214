"""Escaped highlight HTML, Markdown-safe labels and plotly figures (no Streamlit)."""
