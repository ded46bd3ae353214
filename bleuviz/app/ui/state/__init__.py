"""Session state: the sidebar's settings and the app's arguments, links, selections, stepping."""
