"""Fuzz every reader of ``bleuviz.io`` and the ``score`` command with generated files.

The properties (issue 34, item 5): a reader either returns a test set (or scores)
or refuses with a ``BleuvizError``, never another exception; ``score`` exits 0 or
2, never with a traceback, and never exits 0 with a NaN or infinite number.

Inputs are drawn close to each format (its separators, quotes, tags, keys,
number spellings and the markers of missing scores) so that the parsers get past
their first line, plus arbitrary bytes; NIST SGML too, which the XML reader also
takes. Each test runs a bounded number of examples (``FUZZ``), the same ones on
every run; set ``BLEUVIZ_FUZZ_RANDOM=1`` and raise ``BLEUVIZ_FUZZ_EXAMPLES`` for
a longer hunt.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bleuviz.cli.main import main
from bleuviz.errors import BleuvizError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.load import load_files, load_xml
from bleuviz.io.seg_scores import attach_seg_scores, read_seg_scores
from bleuviz.io.table import load_table
from bleuviz.io.testset import TestSet

FUZZ = settings(
    max_examples=int(os.environ.get("BLEUVIZ_FUZZ_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=os.environ.get("BLEUVIZ_FUZZ_RANDOM") is None,  # the same run in CI
)

TESTSET = TestSet({"A": ("a b", "c"), "B": ("a", "d")}, (("a b", "c d"),))

# --------------------------------------------------------------- strategies

#: Pieces every format is made of: separators, quotes, line ends, BOMs, odd characters.
_PIECES = [
    "\t", ",", '"', "'", "\n", "\r\n", "\r", " ", "\ufeff", "\x00", "\x0b", "\u2028",
    "a", "b", "ref", "A", "B", "src", "doc", "id", "score:C:A", "score:C:refA",
    "None", "null", "nan", "inf", "-1", "0.5", "1e999", "1_000", "\u0661", "\uff11",
    "{", "}", "[", "]", ":", "\\", "\\u", "\\ud800", "&amp;", "&#0;", "&#x110000;",
    "<", ">", "/", "=", "é", "😀",
]  # fmt: skip
_text = st.lists(st.sampled_from(_PIECES) | st.text(max_size=4), max_size=40).map("".join)
_bytes = st.binary(max_size=200)
_word = st.sampled_from(["a", "b", "c d", "é", '"q"', "x y z", "", "😀", "\\", "&amp;"])
#: Score spellings: mostly plain numbers, sometimes what a reader must refuse.
_good_number = st.sampled_from(["0.5", "-1", "2e-3", "+.5", "7", "None"])
_bad_number = st.sampled_from(
    ["nan", "-inf", "1e999", "1_000", "\u0661\u0662", "", "0x1", "\uff11"]
)
_number = _good_number | _bad_number
_mutate = st.integers(0, 3).map(lambda k: k == 0)  # a mutation in one example of four


@st.composite
def _rows(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    """A table's header (a reference, systems, maybe ids and scores) and rows of its width."""
    optional = ["ref2", "src", "doc", "B", "score:C:A", "score:C:B", "score:C:refA"]
    header = ["ref", "A", *draw(st.lists(st.sampled_from(optional), unique=True, max_size=4))]
    n = draw(st.integers(1, 4))
    rows = [[draw(_number if c.startswith("score:") else _word) for c in header] for _ in range(n)]
    return header, rows


@st.composite
def _delimited(draw: st.DrawFn, sep: str) -> str:
    """A TSV or CSV table, now and then with a row of another width or a repeated column."""
    header, rows = draw(_rows())
    lines = [header, *rows]
    if draw(_mutate):
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = draw(
            st.sampled_from([lines[i][:-1], [*lines[i], "x"], [*lines[i], lines[i][0]]])
        )
    end = draw(st.sampled_from(["\n", "\r\n", ""]))
    return "\n".join(sep.join(r) for r in lines) + end


#: JSON values as text that a strict reader refuses (or must survive).
_odd_json = st.sampled_from(
    ["NaN", "Infinity", "-Infinity", "1e999", "1" * 5000, '"\\ud800"', "true", "{}", "[1]"]
) | st.integers(0, 3000).map(lambda d: "[" * d + "]" * d)


@st.composite
def _jsonl(draw: st.DrawFn) -> str:
    """JSON lines of a table; now and then a repeated key, NaN, deep nesting or odd value."""
    header, rows = draw(_rows())
    lines = []
    for row in rows:
        items = []
        for key, cell in zip(header, row, strict=True):
            value = json.dumps(cell)
            if key.startswith("score:"):
                value = "null" if cell == "None" else cell if _is_json_number(cell) else value
            items.append(f"{json.dumps(key)}: {value}")
        if draw(_mutate):
            key = json.dumps(draw(st.sampled_from(header)))
            items.insert(draw(st.integers(0, len(items))), f"{key}: {draw(_odd_json)}")
        lines.append("{" + ", ".join(items) + "}")
    return "\n".join(lines)


def _is_json_number(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return text.strip() == text and text[:1] not in ("+", ".")


@st.composite
def _comet_json(draw: st.DrawFn) -> str:
    """COMET's --to_json for TESTSET; now and then a repeated key, odd value or other text."""
    parts = []
    for system in draw(st.lists(st.sampled_from(["A", "B", "Z"]), unique=True, min_size=1)):
        lines = TESTSET.systems.get(system, ("z", "z"))
        records = []
        for line in lines[: draw(st.integers(0, len(lines) + 1))]:
            score = draw(_good_number.filter(lambda v: v != "None" and _is_json_number(v)))
            items = [f'"mt": {json.dumps(line)}', '"src": "s"', f'"COMET": {score}']
            if draw(_mutate):
                items.append(
                    draw(
                        st.sampled_from(['"COMET": 1', '"mt": "a"', f'"COMET": {draw(_odd_json)}'])
                    )
                )
            records.append("{" + ", ".join(items) + "}")
        parts.append(f'"out/hyp.{system}.txt": [' + ", ".join(records) + "]")
    return "{\n" + ",\n".join(parts) + "\n}"


@st.composite
def _seg_score(draw: st.DrawFn) -> str:
    """An mt-metrics-eval file for TESTSET (and WMT's refA), with odd lines now and then."""
    systems = draw(st.lists(st.sampled_from(["A", "B", "refA", "Z"]), unique=True, min_size=1))
    counts = {system: draw(st.sampled_from([1, 3])) if draw(_mutate) else 2 for system in systems}
    lines = [f"{system}\t{draw(_good_number)}" for system in systems for _ in range(counts[system])]
    if draw(_mutate):
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = lines[i].split("\t")[0] + "\t" + draw(_bad_number)
    if draw(_mutate):
        lines.insert(0, draw(st.sampled_from(["A 1", "\tA", "A\t1\t2", "", "A\t 0.5 "])))
    return "\n".join(lines) + "\n"


@st.composite
def _wmt_xml(draw: st.DrawFn) -> str:
    """A WMT XML test set; now and then an odd id, entity, markup or a missing part."""
    n = draw(st.integers(1, 3))
    ids = [str(i + 1) for i in range(n)]
    if draw(_mutate):
        ids[-1] = draw(st.sampled_from(["1", "", "x"]))
    odd = st.sampled_from(["&bogus;", "<b>x</b>", "&#0;", "&#65;", "]]>", "&e;"])
    texts = _word | odd if draw(_mutate) else _word
    parts = []
    for kind, attr in (
        ("src", 'lang="en"'),
        ("ref", 'lang="de" translator="A"'),
        ("hyp", 'system="S"'),
    ):
        if kind == "ref" or not draw(_mutate):
            body = "".join(f'<seg id="{i}">{draw(texts)}</seg>' for i in ids)
            parts.append(f"<{kind} {attr}><p>{body}</p></{kind}>")
    doc = '<doc id="d1">' + "".join(parts) + "</doc>"
    head = '<!DOCTYPE x [<!ENTITY e "y">]>' if draw(_mutate) else '<?xml version="1.0"?>'
    return f'{head}<dataset id="t"><collection id="c">{doc}</collection></dataset>'


@st.composite
def _sgml(draw: st.DrawFn) -> str:
    """A NIST SGML file holding every set; now and then an unclosed or misplaced tag."""
    n = draw(st.integers(1, 3))
    odd = st.sampled_from(["<seg>", "</doc>", "<doc>", '<doc docid="d1">', "&#99999999;", "<p>"])

    def doc(sysid: str) -> str:
        segs = "".join(f'<seg id="{i + 1}">{draw(_word)}</seg>\n' for i in range(n))
        if draw(_mutate):
            segs += draw(odd)
        return f'<doc docid="d1"{sysid}>\n{segs}</doc>\n'

    src, ref, tst = doc(""), doc(' sysid="ref"'), doc(' sysid="S"')
    return (
        f'<srcset setid="t" srclang="en">\n{src}</srcset>\n'
        f'<refset setid="t" trglang="de">\n{ref}</refset>\n'
        f'<tstset setid="t" trglang="de">\n{tst}</tstset>\n'
    )


def _accepts_or_refuses(read: Any, *args: Any) -> Any:
    """Call a reader: its result, or None when it refuses with a BleuvizError."""
    try:
        return read(*args)
    except BleuvizError as exc:
        assert "\n" not in str(exc)  # one line
        return None


def nb(name: str, text: str | bytes) -> NamedBytes:
    return NamedBytes(
        name, text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    )


# ------------------------------------------------------------------ readers


@FUZZ
@given(hyp=_text | _bytes.map(lambda b: b.decode("latin-1")), ref=_text)
def test_plain_text(hyp: str, ref: str) -> None:
    _accepts_or_refuses(load_files, [nb("hyp.A.txt", hyp)], [nb("ref.txt", ref)])


@FUZZ
@given(text=_delimited("\t") | _text, raw=_bytes, use_raw=st.booleans())
def test_tsv(text: str, raw: bytes, use_raw: bool) -> None:
    _accepts_or_refuses(load_table, nb("t.tsv", raw if use_raw else text))


@FUZZ
@given(text=_delimited(",") | _text)
def test_csv(text: str) -> None:
    _accepts_or_refuses(load_table, nb("t.csv", text))


@FUZZ
@given(text=_jsonl())
def test_jsonl(text: str) -> None:
    testset = _accepts_or_refuses(load_table, nb("t.jsonl", text))
    for scores in testset.seg_scores if testset is not None else ():
        for values in scores.values.values():
            assert all(math.isfinite(v) or math.isnan(v) for v in values)


@FUZZ
@given(text=_wmt_xml() | _text, raw=_bytes, use_raw=st.booleans())
def test_wmt_xml(text: str, raw: bytes, use_raw: bool) -> None:
    _accepts_or_refuses(load_xml, nb("t.xml", raw if use_raw else text))


@FUZZ
@given(text=_sgml() | _text.map(lambda t: "<srcset>" + t))
def test_sgml(text: str) -> None:
    _accepts_or_refuses(load_xml, nb("t.sgm", text))


@FUZZ
@given(text=_seg_score() | _text)
def test_seg_scores(text: str) -> None:
    scores = _accepts_or_refuses(read_seg_scores, nb("m.seg.score", text), TESTSET)
    if scores is not None:
        assert set(scores.values) <= set(TESTSET.systems)
        for values in scores.values.values():
            assert not any(math.isinf(v) for v in values)


@FUZZ
@given(text=_comet_json() | _text)
def test_comet_json(text: str) -> None:
    testset = _accepts_or_refuses(attach_seg_scores, TESTSET, [nb("c.json", text)])
    for scores in testset.seg_scores if testset is not None else ():
        for values in scores.values.values():
            assert not any(math.isinf(v) for v in values)


# ---------------------------------------------------------- the score command


def _finite_json(text: str) -> Any:
    """Parse JSON output, refusing NaN and infinities anywhere in it."""

    def refuse(token: str) -> None:
        raise AssertionError(f"{token} in the output")

    data = json.loads(text, parse_constant=refuse)
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, float):
            assert math.isfinite(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return data


_options = st.lists(
    st.sampled_from(
        [
            ["-m", "bleu", "chrf", "ter"],
            ["-s", "floor", "-sv", "nan"],
            ["-s", "add-k", "-sv", "-1"],
            ["-s", "floor", "-sv", "0"],
            ["--flavor", "nltk", "--smooth", "method4"],
            ["--flavor", "tf-nmt"],
            ["--weights", "1", "0", "0", "0"],
            ["--weights", "0", "0", "0", "0"],
            ["--max-order", "0"],
            ["-m", "chrf", "-cc", "0", "-cw", "0"],
            ["-m", "chrf", "-cc", "21"],
            ["--confidence", "--confidence-n", "3"],
            ["--sentence-level"],
            ["--tokenize", "char"],
            ["-lc"],
        ]
    ),
    max_size=3,
).map(lambda picked: [o for option in picked for o in option])


_line = _word | st.sampled_from(["\u200b", "\t", "a\x0bb", "\u2028", "x" * 300, "٣ ٤"])


@st.composite
def _plain_pair(draw: st.DrawFn) -> tuple[str, str]:
    """A hypothesis file and a reference file, of the same length unless mutated."""
    n = draw(st.integers(1, 5))
    hyp = draw(st.lists(_line, min_size=n, max_size=n))
    ref = draw(st.lists(_line, min_size=n, max_size=n + int(draw(_mutate))))
    end = draw(st.sampled_from(["\n", "\r\n", ""]))
    return "\n".join(hyp) + end, "\n".join(ref) + end


@settings(FUZZ, max_examples=max(10, FUZZ.max_examples // 2))
@given(
    pair=_plain_pair() | st.tuples(_text, _text),
    scores=_seg_score(),
    options=_options,
    with_scores=st.booleans(),
    table=st.none() | _jsonl() | _delimited("\t"),
)
def test_score_command(
    tmp_path: Path,
    pair: tuple[str, str],
    scores: str,
    options: list[str],
    with_scores: bool,
    table: str | None,
) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))  # one per example
    hyp, ref = pair
    files = {"hyp.A.txt": hyp, "ref.txt": ref, "m.seg.score": scores}
    files["t.jsonl" if table is not None and table.startswith("{") else "t.tsv"] = table or ""
    for name, text in files.items():
        (folder / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    if table is None:
        argv = ["score", "--ref", str(folder / "ref.txt"), "--hyp", str(folder / "hyp.A.txt")]
    else:
        name = "t.jsonl" if table.startswith("{") else "t.tsv"
        argv = ["score", "--hyp", str(folder / name)]
    if with_scores:
        argv += ["--seg-scores", str(folder / "m.seg.score")]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([*argv, *options, "-f", "json"])
        except SystemExit as exc:  # argparse's refusals
            status = exc.code  # type: ignore[assignment]
    assert status in (0, 2), err.getvalue()
    event(f"exit {status}")  # shown by --hypothesis-show-statistics
    if status == 2:
        assert err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue()
        return
    report = _finite_json(out.getvalue())
    assert report["systems"]


@pytest.mark.parametrize(
    "text",
    [
        '{"A": "a", "ref": "a", "A": "b"}',
        '{"A": "a", "ref": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"A": "a", "ref": "a", "score:C:A": NaN}',
        '{"A": "\\ud800", "ref": "a"}',
    ],
)
def test_score_command_refuses_what_the_fuzzer_found(tmp_path: Path, text: str) -> None:
    """Inputs that once gave a wrong score or a traceback (kept as regressions)."""
    table = tmp_path / "t.jsonl"
    table.write_text(text + "\n", encoding="utf-8", errors="surrogatepass")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["score", "--hyp", str(table), "-f", "json"])
    assert status == 2 and err.getvalue().startswith(f"bleuviz: error: {table}: line 1: ")
