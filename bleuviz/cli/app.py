"""``bleuviz app``: start the app's server, from any directory, with bleuviz's settings.

It runs ``python -m streamlit run .../bleuviz/app/serve.py`` in place of this
process (``os.execv``: Ctrl-C and a terminating signal reach the server itself,
and its exit status is the command's). ``serve.py`` does the start-up work (the
files named here are read, saved and counted while the first page loads). The
server's settings are :mod:`bleuviz.cli.server_settings`' (loopback, XSRF on,
the upload limit, no file watcher), given as options so that they hold whatever
the current directory. The command line never imports the app or Streamlit
(import-linter's layers): the script's path is found inside the installed
package without importing it.

Mistakes are refused here, with one line and exit status 2, rather than on the
page: an unknown option, a bad port or address, ``--ref`` without ``--hyp`` (or
the reverse), a file that does not exist.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

from bleuviz.cli.server_settings import PINNED_DEFAULTS, SERVER_SETTINGS, option_flags
from bleuviz.errors import ConfigError, InputError
from bleuviz.io.load import holds_references
from bleuviz.io.mqm_score import parse_weights

#: The app's options taking files (``add_app_arguments``).
FILE_OPTIONS = ("ref", "hyp", "src", "docids", "seg_scores", "mqm")
#: All the app's options, as messages list them.
APP_OPTIONS = tuple(
    "--" + name.replace("_", "-")
    for name in (*FILE_OPTIONS, "mqm_weights", "lower_is_better", "workspace")
)

#: A host name (RFC 1123 labels, dot-separated).
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


def add_app_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the app subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "app",
        help="start the app (the bundled sample, or the files named) and print its address",
        description="Start the bleuviz app; open the printed address in a browser.",
    )
    parser.add_argument(
        "--port", type=port_number, help="port to listen on (default: 8501, or the next free one)"
    )
    parser.add_argument(
        "--address",
        type=host_address,
        default=str(SERVER_SETTINGS["server.address"]),
        help="address to listen on (default: %(default)s, this machine only)",
    )
    add_app_arguments(parser)
    parser.set_defaults(func=run_app)
    return parser


def add_app_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the app's own arguments: ``bleuviz app`` takes them, and the app reads them after
    ``--`` on ``streamlit run`` (:mod:`bleuviz.app.ui.state.app_args`)."""
    parser.add_argument("--ref", nargs="+", default=[], metavar="REF", help="reference files")
    parser.add_argument("--hyp", nargs="+", default=[], metavar="HYP", help="system outputs")
    parser.add_argument("--src", metavar="SRC", help="source file (optional)")
    parser.add_argument("--docids", metavar="FILE", help="one document id per line (optional)")
    parser.add_argument(
        "--seg-scores", nargs="+", default=[], metavar="FILE", help="segment scores from outside"
    )
    parser.add_argument(
        "--mqm",
        nargs="+",
        default=[],
        metavar="FILE",
        help="error spans from outside (MQM TSV, .seg.rating, ESA JSON lines or Appraise CSV, "
        "xCOMET JSON)",
    )
    parser.add_argument(
        "--mqm-weights", metavar="WEIGHTS", help="MQM error weights (as score's --mqm-weights)"
    )
    parser.add_argument(
        "--lower-is-better", nargs="+", default=[], metavar="NAME", help="imported scores"
    )
    parser.add_argument("--workspace", metavar="DIR", help="workspace folder")


def port_number(text: str) -> int:
    """Parse a TCP port, 1 to 65535."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return int(text)


def host_address(text: str) -> str:
    """Accept an IP address or a host name."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        if not _HOST_NAME.fullmatch(text) or len(text) > 253:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not an IP address or host name"
            ) from None
    return text


def run_app(args: argparse.Namespace) -> int:
    """Check the arguments, then become the Streamlit server (this call does not return)."""
    command = streamlit_command(args)
    os.execv(command[0], command)
    return 1  # not reached: execv replaces this process or raises OSError


def streamlit_command(args: argparse.Namespace) -> list[str]:
    """Return the ``python -m streamlit run`` command line ``bleuviz app ARGS`` stands for.

    Raises:
        ConfigError: ``--ref`` without ``--hyp``, or the reverse; malformed ``--mqm-weights``.
        InputError: a file named does not exist.
    """
    check_files(args)
    if args.mqm_weights is not None:
        parse_weights(args.mqm_weights)  # refused here, in one line, not on the page
    settings = {**SERVER_SETTINGS, **PINNED_DEFAULTS, "server.address": args.address}
    if args.port is not None:
        settings["server.port"] = args.port
    own = app_arguments(args)
    script = [sys.executable, "-m", "streamlit", "run", str(serve_script())]
    return [*script, *option_flags(settings), *(["--", *own] if own else [])]


def check_files(args: argparse.Namespace) -> None:
    """Refuse what the app would only report on its page: a lone side, a missing file."""
    if bool(args.ref) != bool(args.hyp) and not (args.hyp and holds_references(args.hyp)):
        given, missing = ("--ref", "--hyp") if args.ref else ("--hyp", "--ref")
        raise ConfigError(f"{given} without {missing}: both are needed to open files")
    for option in FILE_OPTIONS:
        value = getattr(args, option)
        for name in [value] if isinstance(value, str) else value or []:
            if not Path(name).is_file():
                flag = "--" + option.replace("_", "-")
                raise InputError(f"{flag}: no such file: {name}")


def app_arguments(args: argparse.Namespace) -> list[str]:
    """The arguments the app reads after ``--`` (``bleuviz.app.ui.state.app_args``)."""
    out: list[str] = []
    for flag in APP_OPTIONS:
        value = getattr(args, flag[2:].replace("-", "_"))
        values = [value] if isinstance(value, str) else value or []
        if values:
            out += [flag, *values]
    return out


def serve_script() -> Path:
    """The installed ``bleuviz/app/serve.py``, found without importing the app."""
    return Path(str(files("bleuviz") / "app" / "serve.py"))
