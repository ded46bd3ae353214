"""The frame's parts: the sidebar and the start-up work of the server."""
