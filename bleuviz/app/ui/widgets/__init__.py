"""Small widgets: highlight markup, number formats, filter chips, exports, table windows."""
