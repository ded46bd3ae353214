"""The frame's one style sheet: every rule the page's blocks use, in one <style> element."""

from __future__ import annotations

import re

from bleuviz.app.ui.widgets.markup import one_sheet
from bleuviz.render.every_system import SYSTEM_STYLE
from bleuviz.render.highlight import STYLE
from bleuviz.render.word_diff import DIFF_STYLE


def rules(sheet: str) -> list[str]:
    """The CSS rules of a sheet (selector and body), whitespace squeezed."""
    body = re.sub(r"</?style>", "", sheet)
    return [" ".join(rule.split()) for rule in re.findall(r"[^{}]+\{[^{}]*\}", body)]


def test_one_sheet_keeps_every_rule_in_order_in_one_element() -> None:
    sheets = (STYLE, SYSTEM_STYLE, DIFF_STYLE)
    joined = one_sheet(*sheets)
    assert joined.count("<style") == 1 and joined.count("</style>") == 1
    assert joined.startswith("<style>") and joined.endswith("</style>")
    assert rules(joined) == [rule for sheet in sheets for rule in rules(sheet)]
    assert any(".bv-diff ins" in rule for rule in rules(joined))
    assert any(".bv-system-name" in rule for rule in rules(joined))
