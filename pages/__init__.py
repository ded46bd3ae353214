"""Streamlit pages of bleuviz, routed explicitly by app.py through st.navigation."""
