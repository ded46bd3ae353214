"""Exceptions raised by the scoring core.

Every refusal is an exception with a one-line message that names the argument,
the file and (where there is one) the line, so the UI can show it in
``st.error`` and the command line can print it to stderr with exit status 2.
"""

from __future__ import annotations


class BleuvizError(ValueError):
    """Base class for every error the core raises on bad input or settings."""


class InputError(BleuvizError):
    """A test-set file was refused: missing, empty, too large, mismatched or undecodable."""


class ConfigError(BleuvizError):
    """A scoring setting is invalid (unknown tokenizer, smoothing, weights, ...)."""


class WorkspaceError(BleuvizError):
    """The workspace cannot be used: corrupt, read-only, from a newer bleuviz, or busy."""


class UnknownTestSet(WorkspaceError):
    """A test-set id names no test set saved in the workspace."""
