"""Sections several pages share, and the cache boundary between the pages and ``bleuviz``."""
