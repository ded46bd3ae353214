"""The Streamlit app, shipped in the wheel: the frame, the page scripts and ``ui/`` by role."""
