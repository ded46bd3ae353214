"""One self-contained HTML file holding a whole analysis, opened offline (``bleuviz report``)."""
