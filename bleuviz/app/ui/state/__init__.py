"""Session state and links: every setting in the URL, selections and stepping."""
