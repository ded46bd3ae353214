"""``python -m bleuviz``: one module per subcommand."""
