"""AppTest of error-span files (--mqm, and the sidebar's score uploader) on Google's TED excerpt.

The app is started as ``streamlit run app.py -- --ref ... --hyp ... --docids ...
--mqm mqm_ted_ende.tsv`` on tests/data/mqm (see its README). Oracle: Google's
published per-segment averages (``mqm_ted_ende.avg_seg_scores.tsv``), whose means the
Overview's MQM column must show.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.state.app_args import parse_argv
from bleuviz.io.mqm_score import DEFAULT_WEIGHTS_SPEC
from bleuviz.render.labels import escape_markdown
from tests.app.markup import message_text
from tests.app.test_app_imported_scores import score_uploader
from tests.cli.test_mqm_cli import BASE, MQM_FILE, SEG_IDS, error_counts, published
from tests.io.test_mqm_score import oracle_scores
from tests.io.test_mqm_tsv import MQM_SYSTEMS

COLUMN = "MQM (mean ± 95% CI)"
#: MQM's weights (0.1, 1, 5, 25) write one decimal: its scores show with two, the fewest
#: (bleuviz.render.numbers), not four.
DIGITS = 2


def shown_means(at: AppTest) -> dict[str, str]:
    """The Overview's MQM column: each system's mean, as shown (before the ±)."""
    table = at.table[0].value
    return {s: table.loc[escape_markdown(s), COLUMN].split(" ± ")[0] for s in MQM_SYSTEMS}


def expected_means() -> dict[str, str]:
    """Google's per-segment averages' means, as the Overview formats a mean."""
    return {s: f"{np.mean(values):.{DIGITS}f}" for s, values in published().items()}


def test_mqm_files_join_the_score_files() -> None:
    args = parse_argv(("app.py", "--seg-scores", "a.seg.score", "--mqm", "m.tsv", "e.jsonl"))
    assert args.seg_scores == ("a.seg.score", "m.tsv", "e.jsonl")
    assert args.problem is None


def test_command_line_mqm_shows_googles_means(new_app: Callable[..., AppTest]) -> None:
    at = new_app(*BASE, "--mqm", MQM_FILE)
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert shown_means(at) == expected_means()
    notes = [message_text(i.value) for i in at.sidebar.info]
    assert any("skipped 1 system not loaded: ref" in v for v in notes), notes


@pytest.mark.parametrize("name", ["mqm_ted_ende.tsv", "annotations.txt"])
def test_an_uploaded_mqm_file_adds_its_score(new_app: Callable[..., AppTest], name: str) -> None:
    at = new_app(*BASE)
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    assert COLUMN not in at.table[0].value.columns
    with open(MQM_FILE, "rb") as fh:
        score_uploader(at).set_value((name, fh.read(), "text/plain"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert shown_means(at) == expected_means()


def test_a_bad_mqm_upload_is_one_line_on_the_page(new_app: Callable[..., AppTest]) -> None:
    at = new_app(*BASE)
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    with open(MQM_FILE, "rb") as fh:
        broken = fh.read().replace(b"<v>", b"</v>", 1)
    score_uploader(at).set_value(("mqm.tsv", broken, "text/plain"))
    at.run()
    assert not at.exception
    (error,) = at.error
    assert "closes no" in error.value and "\n" not in error.value.strip()


def test_another_mqm_upload_asks_before_replacing(new_app: Callable[..., AppTest]) -> None:
    at = new_app(*BASE, "--mqm", MQM_FILE)
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    with open(MQM_FILE, "rb") as fh:
        lighter = fh.read().replace(b"\tMajor\t", b"\tMinor\t")  # every Major made Minor
    score_uploader(at).set_value(("other.tsv", lighter, "text/plain"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    (warning,) = at.sidebar.warning
    assert escape_markdown("other.tsv") in warning.value
    assert shown_means(at) == expected_means()  # nothing replaced while the choice waits
    (button,) = [b for b in at.sidebar.button if b.key.startswith("seg_replace::")]
    button.click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    oracle = oracle_scores(lighter.decode())  # every segment of the excerpt is rated
    assert shown_means(at) == {
        s: f"{np.mean([v for k, v in oracle.items() if k[0] == s]):.{DIGITS}f}" for s in MQM_SYSTEMS
    }


def one_per_error_means() -> dict[str, str]:
    """The Overview's MQM means when every Major and Minor error weighs 1."""
    errors = error_counts()
    return {s: f"{-errors[s] / len(SEG_IDS):.{DIGITS}f}" for s in MQM_SYSTEMS}


def test_command_line_weights_weigh_the_mqm_spans(new_app: Callable[..., AppTest]) -> None:
    at = new_app(*BASE, "--mqm", MQM_FILE, "--mqm-weights", "major:1 minor:1 neutral:0")
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert shown_means(at) == one_per_error_means()


def test_command_line_weights_weigh_an_uploaded_mqm_file(new_app: Callable[..., AppTest]) -> None:
    at = new_app(*BASE, "--mqm-weights", "major:1 minor:1 neutral:0")
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    with open(MQM_FILE, "rb") as fh:
        score_uploader(at).set_value(("mqm.tsv", fh.read(), "text/plain"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert shown_means(at) == one_per_error_means()


def test_malformed_weights_are_said_and_the_defaults_used() -> None:
    args = parse_argv(("app.py", "--mqm", "m.tsv", "--mqm-weights", "major"))
    assert args.problem is not None and "--mqm-weights: 'major' is not SEVERITY" in args.problem
    assert args.mqm_weights == DEFAULT_WEIGHTS_SPEC
    assert parse_argv(("app.py", "--mqm-weights", "Major:2")).mqm_weights == "major:2"


def test_an_mqm_file_that_cannot_be_mapped_yet_is_refused_in_the_sidebar(
    new_app: Callable[..., AppTest],
) -> None:
    """Google's MQM TSV before the document ids: refused with its reason; the page stays.

    Issue 44 item 7: the file's refusal stopped every page with a full-page error.
    """
    without_docids = BASE[: BASE.index("--docids")]
    at = new_app(*without_docids)
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    before = at.table[0].value
    with open(MQM_FILE, "rb") as fh:
        score_uploader(at).set_value(("mqm_ted_ende.tsv", fh.read(), "text/plain"))
    at.run()
    assert not at.exception and not at.main.error, [e.value for e in at.main.error]
    (error,) = at.sidebar.error
    shown = message_text(error.value)  # the reader's reason, escaped and read back
    assert shown.startswith("Not loaded: ")
    assert "mqm_ted_ende.tsv: line 93: system 'Facebook-AI': seg_id 218 is past" in shown
    assert "without document ids, seg_id is taken as the line number" in shown
    assert at.table[0].value.equals(before)  # the page as it was, without MQM
    at.run()  # and on every later run
    assert not at.main.error and len(at.sidebar.error) == 1


def test_a_refusal_is_still_said_after_the_other_uploads_are_saved(
    new_app: Callable[..., AppTest],
) -> None:
    """Saving the readable files empties the uploader; the refused file's reason stays."""
    without_docids = BASE[: BASE.index("--docids")]
    at = new_app(*without_docids)
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    n = len(SEG_IDS)  # the excerpt's segments
    good = "".join(f"{s}\t{k / n}\n" for s in MQM_SYSTEMS for k in range(n)).encode()
    with open(MQM_FILE, "rb") as fh:
        files = [("mqm_ted_ende.tsv", fh.read(), "text/plain")]
    score_uploader(at).set_value([*files, ("Toy.seg.score", good, "text/plain")])
    at.run()
    assert not at.exception and not at.main.error, [e.value for e in at.main.error]
    assert "Toy (mean ± 95% CI)" in at.table[0].value.columns  # saved and shown
    assert not score_uploader(at).value  # the uploader was emptied by the save
    (error,) = at.sidebar.error
    assert f"is past the test set's {n} segments" in message_text(error.value)
