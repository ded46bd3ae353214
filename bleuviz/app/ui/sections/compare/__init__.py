"""The Compare page's sections and its cached data."""
