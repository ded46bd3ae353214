"""The script Streamlit runs for the installed app (``bleuviz app``): the frame, then the page."""

from bleuviz.app.frame import show_app

show_app()
