"""Entry point for ``python -m bleuviz``."""

import os
import sys

from bleuviz.cli.main import main

status = main()
# Leave without the interpreter's teardown, which frees every module and array one
# by one (about 10 ms of a small command once numpy is loaded): the output is
# flushed here, and the commands close their files, databases and worker pools
# before main returns (each in a with-block).
try:
    sys.stdout.flush()
    sys.stderr.flush()
except BrokenPipeError:  # the reader left early (``| head``): nothing more to say
    pass
os._exit(status)
