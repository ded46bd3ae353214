"""bleuviz: look inside BLEU scores, from a checkout. The frame is :mod:`bleuviz.app.frame`.

Run ``streamlit run app.py`` for the bundled sample, or
``streamlit run app.py -- --ref R1 [R2 ...] --hyp H1 [H2 ...] [--src S] [--docids D]
[--seg-scores F1 [F2 ...]] [--lower-is-better NAME ...]``.
"""

from bleuviz.app.frame import show_app
from bleuviz.app.sockets import send_at_once_from_now

send_at_once_from_now()  # serve.py does it at start-up; here, the first run does
show_app()
