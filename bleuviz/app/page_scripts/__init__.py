"""Streamlit page scripts, routed explicitly by the frame (bleuviz.app.frame)."""
