"""The frame's parts: the sidebar, its settings, the app's arguments and start-up work."""
