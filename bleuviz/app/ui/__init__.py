"""Sections several pages share, by role: frame, state, cache boundary, widgets, sections."""
