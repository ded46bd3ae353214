"""The report's building blocks: titled tables of text cells, and sections holding them.

Numbers become text here (so that the template holds no logic); every piece
of user text stays a plain string, which the template engine escapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bleuviz.report.options import ALPHA


@dataclass(frozen=True, slots=True)
class Cell:
    """One table cell: its text, and optionally a CSS class, a link and a hover text."""

    text: str
    css: str = ""
    href: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    """A captioned table: its header, rows of cells, and notes below it."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Section:
    """A titled section: paragraphs, charts (inline SVG) and tables."""

    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    charts: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()


def num(value: float | None, digits: int, sign: bool = False) -> str:
    """A number with ``digits`` decimals; an en dash where there is none."""
    if value is None or math.isnan(value):
        return "–"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def number_cell(value: float | None, digits: int, css: str = "num") -> Cell:
    """A right-aligned number cell."""
    return Cell(num(value, digits), css)


def p_cell(value: float | None) -> Cell:
    """A p-value, starred below ALPHA."""
    if value is None:
        return Cell("–", "num")
    return Cell(f"{value:.4f}" + ("*" if value < ALPHA else ""), "num")


def segment_link(seg: int) -> Cell:
    """A cell linking to segment ``seg`` (1-based) in the segment browser."""
    return Cell(str(seg), "num", href=f"#seg-{seg}")
