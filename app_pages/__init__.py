"""Streamlit page scripts, routed explicitly by app.py through st.navigation."""
