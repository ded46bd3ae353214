"""bleuviz's server from a checkout: ``streamlit run serve.py [-- --ref R ... --hyp H ...]``.

Streamlit finds the ASGI app by reading this file for an assignment ``app =
st.App(...)`` (it does not follow imports), and serves it with uvicorn; the
start-up work is :mod:`bleuviz.app.lifespan`'s.
"""

import streamlit as st

from bleuviz.app.lifespan import MAIN_SCRIPT, lifespan
from bleuviz.app.page_html import page_routes

app = st.App(MAIN_SCRIPT, lifespan=lifespan, routes=page_routes())
