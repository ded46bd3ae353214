"""How a link's values read and write: choices, flags, numbers in a range, lists, text.

Each parser turns a query parameter's raw text into a widget's value, or raises
``LinkValueError`` saying why it cannot be used (the page names the parameter and
the value); each ``show_`` function writes a value back. Numbers must be finite
and in their widget's range, so a link cannot ask for more work than the page's
own inputs allow.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from bleuviz.limits import DECIMAL, WHOLE_NUMBER


class LinkValueError(ValueError):
    """A query parameter's value that cannot be used; the message says why."""


def choice(options: Sequence[str], what: str) -> Callable[[str], object]:
    """One of ``options``."""

    def parse(raw: str) -> object:
        if raw in options:
            return raw
        allowed = ", ".join(options) if len(options) <= 12 else f"{len(options)} choices"
        raise LinkValueError(f"no {what} of that name (one of {allowed})")

    return parse


def choices(options: Sequence[str], what: str) -> Callable[[str], object]:
    """Comma-separated values, each one of ``options`` (empty: none), each kept once.

    An option may hold commas itself (an error category read from a file): the
    parts are read as runs that each name an option (the longest run first where
    there is a choice), so ``show_list`` of any chosen options reads back as
    options covering the same text. A value named twice is kept once.
    """
    one = choice(options, what)
    known = set(options)
    widest = max((option.count(",") for option in options), default=0) + 1

    def parse(raw: str) -> object:
        parts = raw.split(",")
        # ends[i]: where the run read from part i ends, if parts[i:] can be read at all.
        ends: list[int | None] = [None] * len(parts) + [len(parts)]
        for i in range(len(parts) - 1, -1, -1):
            for j in range(min(len(parts), i + widest), i, -1):
                if ends[j] is not None and ",".join(parts[i:j]).strip() in known:
                    ends[i] = j
                    break
            else:
                if not parts[i].strip() and ends[i + 1] is not None:
                    ends[i] = i + 1  # a blank between commas
        if ends[0] is None:
            bad = [p.strip() for p in parts if p.strip() and p.strip() not in known]
            one(bad[0] if bad else raw)  # raises, naming what is allowed
        chosen: list[str] = []
        at: int | None = 0
        while at is not None and at < len(parts):  # readable from 0: each end is set
            end = ends[at]
            if ",".join(parts[at:end]).strip():
                chosen.append(",".join(parts[at:end]).strip())
            at = end
        return list(dict.fromkeys(chosen))

    return parse


def split_list(raw: str) -> list[str]:
    """Split a comma-separated parameter, dropping blanks."""
    return [part.strip() for part in raw.split(",") if part.strip()]


def show_list(value: object) -> str:
    """The inverse of ``split_list``."""
    return ",".join(map(str, value))  # type: ignore[call-overload]


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def flag(raw: str) -> object:
    """A switch: 1/0, true/false, yes/no or on/off."""
    if raw.lower() in TRUE:
        return True
    if raw.lower() in FALSE:
        return False
    raise LinkValueError("not a switch (1 or 0)")


def show_flag(value: object) -> str:
    """A switch as 1 or 0."""
    return "1" if value else "0"


def integer(low: int, high: int) -> Callable[[str], object]:
    """A whole number from ``low`` to ``high``, in ASCII digits as the command line reads it."""

    def parse(raw: str) -> object:
        if not WHOLE_NUMBER.fullmatch(raw.strip()):
            raise LinkValueError("not a whole number")
        value = int(raw)
        if not low <= value <= high:
            raise LinkValueError(f"out of range ({low} to {high:,})")
        return value

    return parse


def number(low: float, high: float = math.inf) -> Callable[[str], object]:
    """A finite number from ``low`` to ``high`` (``inf``, ``nan`` and ``1e999`` are refused)."""

    def parse(raw: str) -> object:
        if raw.strip().lower() in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
            raise LinkValueError("not a finite number")
        if not DECIMAL.fullmatch(raw.strip()):
            raise LinkValueError("not a number")
        value = float(raw)
        if not math.isfinite(value):
            raise LinkValueError("not a finite number")
        if not low <= value <= high:
            raise LinkValueError(f"out of range ({_bound(low)} to {_bound(high)})")
        return value

    return parse


def _bound(x: float) -> str:
    """A range's end as the command line writes it: ``1,000,000``, not ``1e+06``."""
    return f"{int(x):,}" if math.isfinite(x) and x == int(x) else repr(x)


def number_range(low: float, high: float, whole: bool = False) -> Callable[[str], object]:
    """Two comma-separated numbers ``lo,hi`` with low <= lo <= hi <= high."""
    one = integer(int(low), int(high)) if whole else number(low, high)

    def parse(raw: str) -> object:
        parts = split_list(raw)
        if len(parts) != 2:
            raise LinkValueError("not a range (two numbers: low,high)")
        first, last = one(parts[0]), one(parts[1])
        if first > last:  # type: ignore[operator]
            raise LinkValueError("the low end is above the high end")
        return (first, last)

    return parse


def show_number(value: object) -> str:
    """A number or a range without trailing zeros."""
    if isinstance(value, tuple | list):
        return ",".join(show_number(v) for v in value)
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)  # repr round-trips exactly
    return str(value)


def text(raw: str) -> object:
    """Any text."""
    return raw
