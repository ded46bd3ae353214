"""Entry point for ``python -m bleuviz``."""

import sys

from bleuviz.cli import main

sys.exit(main())
