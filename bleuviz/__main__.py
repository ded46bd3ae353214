"""Entry point for ``python -m bleuviz`` (the same as the ``bleuviz`` command)."""

from bleuviz.cli.main import run

run()
