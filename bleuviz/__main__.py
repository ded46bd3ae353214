"""Entry point for ``python -m bleuviz``."""

import sys

from bleuviz.cli.main import main

sys.exit(main())
