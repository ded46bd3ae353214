"""Tests for bleuviz.io.load and bleuviz.io.wmt_xml: reading test sets and refusing bad input.

Inputs are built in memory as ``NamedBytes``. The WMT XML reader is checked
against sacrebleu 2.6.0's own reader (``WMTXMLDataset._unwrap_wmt21_or_later``)
as an oracle; every other expectation is written out by hand from the input.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sacrebleu.dataset.wmt_xml import WMTXMLDataset

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, read_path
from bleuviz.io.load import load_files, load_paths, load_sgml_files, load_xml
from bleuviz.io.plain import load_plain, system_name_from_filename
from bleuviz.io.table import load_table
from bleuviz.io.testset import TestSet

BOM = b"\xef\xbb\xbf"


def nb(name: str, text: str | bytes) -> NamedBytes:
    """Return an in-memory file; text is encoded as UTF-8."""
    return NamedBytes(name, text.encode() if isinstance(text, str) else text)


def refused(call: Callable[..., object], *args: object, **kwargs: object) -> str:
    """Call and return the one-line InputError message it raises."""
    with pytest.raises(InputError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    return message


# --- decode_lines ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(b"a\nb\n", ("a", "b"), id="trailing-newline"),
        pytest.param(b"a\nb", ("a", "b"), id="no-trailing-newline"),
        pytest.param(b"a\r\nb\r\n", ("a", "b"), id="crlf"),
        pytest.param(b"a\r\nb\nc", ("a", "b", "c"), id="mixed-line-ends"),
        pytest.param(BOM + b"a\nb\n", ("a", "b"), id="bom"),
        pytest.param(BOM + b"a\r\nb", ("a", "b"), id="bom-crlf"),
        pytest.param(b"a\n\n\nb\n", ("a", "", "", "b"), id="empty-middle-lines"),
        pytest.param(b"a\n\n", ("a", ""), id="empty-last-line"),
        pytest.param(b"\n", ("",), id="one-empty-line"),
        pytest.param(b"a\rb\n", ("a\rb",), id="lone-cr-is-text"),
        pytest.param(
            "v\x0bf\x0cs\x1cg\x1dr\x1eu\x85n\u2028l\u2029p\n".encode(),
            ("v\x0bf\x0cs\x1cg\x1dr\x1eu\x85n\u2028l\u2029p",),
            id="splitlines-separators-stay-inside",
        ),
        pytest.param(BOM + "\ufeffx".encode(), ("\ufeffx",), id="only-one-bom-stripped"),
        pytest.param("Grüße, 東京\n".encode(), ("Grüße, 東京",), id="non-ascii"),
    ],
)
def test_decode_lines(data: bytes, expected: tuple[str, ...]) -> None:
    assert decode_lines(NamedBytes("f.txt", data)) == expected


def test_crlf_and_lf_give_identical_results() -> None:
    lf = decode_lines(nb("a.txt", "one\n\nthree\n"))
    assert decode_lines(nb("b.txt", "one\r\n\r\nthree\r\n")) == lf == ("one", "", "three")


@pytest.mark.parametrize(
    ("f", "max_bytes", "message"),
    [
        (nb("ref.txt", b""), DEFAULT_MAX_BYTES, "ref.txt: file is empty"),
        (nb("ref.txt", BOM), DEFAULT_MAX_BYTES, "ref.txt: file is empty"),
        (
            nb("hyp.b.txt", b"ok\nfine\nbad \xff here\n"),
            DEFAULT_MAX_BYTES,
            "hyp.b.txt: invalid UTF-8 at line 3 (byte offset 12)",
        ),
        (nb("x.txt", b"\xff"), DEFAULT_MAX_BYTES, "x.txt: invalid UTF-8 at line 1 (byte offset 0)"),
        (
            nb("x.txt", BOM + b"a\n\xc3"),
            DEFAULT_MAX_BYTES,
            "x.txt: invalid UTF-8 at line 2 (byte offset 5)",
        ),
        (
            nb("x.txt", b"a\r\nb\r\n\xed\xa0\x80\r\n"),  # an encoded surrogate
            DEFAULT_MAX_BYTES,
            "x.txt: invalid UTF-8 at line 3 (byte offset 6)",
        ),
        (nb("big.txt", b"x" * 11), 10, "big.txt: file is 11 bytes, over the 10 bytes limit"),
        (nb("big.txt", b"x" * 2048), 1024, "big.txt: file is 2.0 KB, over the 1.0 KB limit"),
    ],
)
def test_decode_lines_refuses(f: NamedBytes, max_bytes: int, message: str) -> None:
    assert refused(decode_lines, f, max_bytes) == message


# Any character but a line end, with splitlines' other separators drawn often.
_LINE_TEXT = st.text(
    st.characters(codec="utf-8", exclude_characters="\r\n")
    | st.sampled_from("\t\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\ufeff")
)


@given(
    lines=st.lists(_LINE_TEXT, min_size=1),
    trailing=st.booleans(),
    bom=st.booleans(),
    crlf=st.booleans(),
)
def test_decode_lines_round_trips(lines: list[str], trailing: bool, bom: bool, crlf: bool) -> None:
    # Without a final line end, a last empty line is indistinguishable from a final line end,
    # and a first line starting with U+FEFF is indistinguishable from a BOM.
    assume(trailing or lines[-1] != "")
    assume(bom or not lines[0].startswith("\ufeff"))
    end = "\r\n" if crlf else "\n"
    data = (BOM if bom else b"") + (end.join(lines) + (end if trailing else "")).encode()
    assert decode_lines(NamedBytes("p.txt", data)) == tuple(lines)


# --- read_path -----------------------------------------------------------------------------


def test_read_path_reads_bytes(tmp_path: Path) -> None:
    path = tmp_path / "hyp.a.txt"
    path.write_bytes(b"x\r\ny\n")
    assert read_path(path) == NamedBytes(str(path), b"x\r\ny\n")
    assert read_path(str(path)).name == str(path)


def test_read_path_refuses_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "data" / "ref.txt"
    assert refused(read_path, missing) == f"no such file: {missing}"


def test_load_paths_reads_what_load_files_reads(tmp_path: Path) -> None:
    files = {"hyp.sysA.txt": "a b c\nd e\n", "ref.txt": "a b\nd e f\n", "src.txt": "x\ny\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    got = load_paths([tmp_path / "hyp.sysA.txt"], [tmp_path / "ref.txt"], tmp_path / "src.txt")
    want = load_files(
        [NamedBytes("hyp.sysA.txt", files["hyp.sysA.txt"].encode())],
        [NamedBytes("ref.txt", files["ref.txt"].encode())],
        NamedBytes("src.txt", files["src.txt"].encode()),
    )
    assert got == want
    assert dict(got.systems) == {"sysA": ("a b c", "d e")}


def test_load_paths_names_the_missing_file(tmp_path: Path) -> None:
    (tmp_path / "hyp.txt").write_text("a\n", encoding="utf-8")
    missing = tmp_path / "ref.txt"
    assert refused(load_paths, [tmp_path / "hyp.txt"], [missing]) == f"no such file: {missing}"


def test_read_path_refuses_directory(tmp_path: Path) -> None:
    assert refused(read_path, tmp_path) == f"{tmp_path}: is a directory, not a file"


def test_read_path_checks_size_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as fh:
        fh.truncate(300 * 1024 * 1024)  # sparse: reading it would take 300 MB
    assert refused(read_path, big) == f"{big}: file is 300.0 MB, over the 200.0 MB limit"


def test_read_path_custom_limit(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"12345")
    assert read_path(path, max_bytes=5).data == b"12345"
    assert (
        refused(read_path, path, max_bytes=4) == f"{path}: file is 5 bytes, over the 4 bytes limit"
    )


# --- system names --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filename", "system"),
    [
        ("hyp.sysA.txt", "sysA"),
        ("out/hyp.online-B.0.de.txt", "online-B.0.de"),
        ("system.txt", "system"),
        ("OnlineA.txt", "OnlineA"),
        ("C:\\runs\\hyp.x.de", "x"),
        ("noextension", "noextension"),
        ("hyp.txt", "hyp"),
        ("/abs/path/hyp.uedin-nmt.4722.de.txt", "uedin-nmt.4722.de"),
    ],
)
def test_system_name_from_filename(filename: str, system: str) -> None:
    assert system_name_from_filename(filename) == system


# --- load_plain ----------------------------------------------------------------------------


def test_load_plain_reads_all_streams() -> None:
    ts = load_plain(
        hyps=[nb("hyp.sysA.txt", "a1\na2\n"), nb("out/hyp.sysB.txt", "b1\r\n\r\n")],
        refs=[nb("ref.txt", "r1\nr2\n"), nb("ref2.txt", BOM + b"s1\ns2")],
        source=nb("src.txt", "x1\nx2\n"),
        docids=nb("docs.txt", "d1\nd1\n"),
    )
    assert ts == TestSet(
        systems={"sysA": ("a1", "a2"), "sysB": ("b1", "")},
        references=(("r1", "r2"), ("s1", "s2")),
        source=("x1", "x2"),
        doc_ids=("d1", "d1"),
    )
    assert ts.system_names == ("sysA", "sysB")


def test_load_plain_disambiguates_duplicate_names() -> None:
    hyps = [nb(name, "h\n") for name in ("a/hyp.sysA.txt", "b/hyp.sysA.txt", "sysA.txt", "x.txt")]
    ts = load_plain(hyps, [nb("ref.txt", "r\n")])
    assert ts.system_names == ("sysA", "sysA (2)", "sysA (3)", "x")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"hyps": [nb("hyp.a.txt", "1\n2\n")], "refs": [nb("ref.txt", "1\n2\n3\n")]},
            "line counts differ: ref.txt has 3 lines, hyp.a.txt has 2 lines",
        ),
        (
            {
                "hyps": [nb("hyp.a.txt", "1\n"), nb("hyp.b.txt", "1\n2")],
                "refs": [nb("ref.txt", "1\n")],
                "source": nb("src.txt", "1\n"),
                "docids": nb("doc.txt", "d\nd\nd\n"),
            },
            "line counts differ: ref.txt has 1 line, hyp.a.txt has 1 line, hyp.b.txt has 2 lines, "
            "src.txt has 1 line, doc.txt has 3 lines",
        ),
        ({"hyps": [], "refs": [nb("ref.txt", "r\n")]}, "no hypothesis file given"),
        ({"hyps": [nb("hyp.a.txt", "h\n")], "refs": []}, "no reference file given"),
        ({"hyps": [nb("hyp.a.txt", "")], "refs": [nb("ref.txt", "r")]}, "hyp.a.txt: file is empty"),
        (
            {"hyps": [nb("hyp.a.txt", "h\n")], "refs": [nb("ref.txt", b"r\n\x80")]},
            "ref.txt: invalid UTF-8 at line 2 (byte offset 2)",
        ),
        (
            {"hyps": [nb("hyp.a.txt", "h" * 20)], "refs": [nb("ref.txt", "r")], "max_bytes": 10},
            "hyp.a.txt: file is 20 bytes, over the 10 bytes limit",
        ),
    ],
)
def test_load_plain_refuses(kwargs: dict[str, object], message: str) -> None:
    assert message in refused(load_plain, **kwargs)


# --- load_table ----------------------------------------------------------------------------


def test_tsv_quotes_are_literal() -> None:
    tsv = 'hyp.A\tref\tsrc\n"quoted" text\t"r\t\'s\'\n2 \x0b in\ra cell\tr2\ts2\n'
    ts = load_table(nb("set.tsv", tsv))
    assert ts.systems == {"A": ('"quoted" text', "2 \x0b in\ra cell")}
    assert ts.references == (('"r', "r2"),)
    assert ts.source == ("'s'", "s2")


def test_csv_quoted_commas_quotes_and_newlines() -> None:
    csv_text = 'sysA,ref\r\n"a, b","c ""d"""\r\n"two\nlines",plain\r\n'
    ts = load_table(nb("set.csv", csv_text))
    assert ts.systems == {"sysA": ("a, b", "two\nlines")}
    assert ts.references == (('c "d"', "plain"),)


def test_jsonl() -> None:
    jsonl = (
        '{"id": "s1", "doc": "d1", "src": "x", "ref": "r\\u2028!", "hyp_A": "a", "B": "b\\"q"}\n'
        '{"B": "b2", "hyp_A": "a2", "ref": "r2", "src": "x2", "doc": "d1", "id": "s2"}\n'
    )
    ts = load_table(nb("set.jsonl", jsonl))
    assert ts == TestSet(
        systems={"A": ("a", "a2"), "B": ('b"q', "b2")},
        references=(("r\u2028!", "r2"),),
        source=("x", "x2"),
        doc_ids=("d1", "d1"),
        seg_ids=("s1", "s2"),
    )


@pytest.mark.parametrize(
    ("header", "systems", "n_refs", "has_source", "has_docs", "has_segids"),
    [
        (["ref", "hyp.X"], ["X"], 1, False, False, False),
        (
            ["seg_id", "document", "Source", "ref1", "ref.de", "reference_2", "hyp_A", "B"],
            ["A", "B"],
            3,
            True,
            True,
            True,
        ),
        (
            ["segid", "doc_id", "src", "REF", "reference", "refinement"],
            ["refinement"],
            2,
            True,
            True,
            True,
        ),
        (["docid", "ref-a", "hyp", "hyp.", "hyp_"], ["hyp", "hyp.", "hyp_"], 1, False, True, False),
        (["hyp.X", "hyp_X", "reference", "id"], ["X", "X (2)"], 1, False, False, True),
    ],
)
def test_table_column_inference(
    header: list[str],
    systems: list[str],
    n_refs: int,
    has_source: bool,
    has_docs: bool,
    has_segids: bool,
) -> None:
    tsv = "\t".join(header) + "\n" + "\t".join(f"v{i}" for i in range(len(header))) + "\n"
    ts = load_table(nb("t.tsv", tsv))
    assert list(ts.systems) == systems
    assert len(ts.references) == n_refs
    found = (ts.source is not None, ts.doc_ids is not None, ts.seg_ids is not None)
    assert found == (has_source, has_docs, has_segids)


def test_table_named_columns() -> None:
    tsv = "a\tb\tgold\tgold2\tsentence\tdocument name\tref\nA\tB\tG\tG2\tS\tD\tR\n"
    ts = load_table(
        nb("t.tsv", tsv),
        hyp_columns=["b"],
        ref_columns=["gold", "gold2"],
        source_column="sentence",
        docid_column="document name",
    )
    assert ts == TestSet(
        systems={"b": ("B",)}, references=(("G",), ("G2",)), source=("S",), doc_ids=("D",)
    )
    # Only references named: the other reference-like column is not taken for a system.
    assert load_table(nb("t.tsv", tsv), ref_columns=["ref"]).system_names == (
        "a",
        "b",
        "gold",
        "gold2",
        "sentence",
        "document name",
    )


@pytest.mark.parametrize(
    ("f", "kwargs", "message"),
    [
        (
            nb("t.tsv", "hyp\tref\nh\tr\n"),
            {"ref_columns": ["gold"]},
            "t.tsv: no column 'gold'; columns present: hyp, ref",
        ),
        (
            nb("t.tsv", "hyp\tref\nh\tr\n"),
            {"source_column": "src"},
            "t.tsv: no column 'src'; columns present: hyp, ref",
        ),
        (nb("t.tsv", "A\tref\nh\tr\nonly one\nh\tr\n"), {}, "t.tsv: line 3 has 1 field"),
        (nb("t.tsv", "A\tref\nh\tr\ta\tb\n"), {}, "t.tsv: line 2 has 4 fields, the header has 2"),
        (nb("t.tsv", "A\tref\nh\tr\n\nh\tr\n"), {}, "t.tsv: line 3 has 1 field"),
        (nb("t.csv", 'A,ref\n"a\nb",r\nx\n'), {}, "t.csv: line 4 has 1 field"),
        (nb("t.csv", 'A,ref\nh,"r"x\n'), {}, "t.csv: line 2: invalid CSV"),
        (
            nb("t.jsonl", '{"A": "h", "ref": "r"}\n{"A": "h", ref}\n'),
            {},
            "t.jsonl: line 2: invalid JSON",
        ),
        (
            nb("t.jsonl", '{"A": "h", "ref": "r"}\n\n{"A": "h", "ref": "r"}\n'),
            {},
            "t.jsonl: line 2 is blank",
        ),
        (
            nb("t.jsonl", '{"A": "h", "ref": 3}\n'),
            {},
            "t.jsonl: line 1: the value of 'ref' is not a string",
        ),
        (nb("t.jsonl", '{"A": "h", "ref": null}\n'), {}, "t.jsonl: line 1: the value of 'ref'"),
        (nb("t.jsonl", '["h", "r"]\n'), {}, "t.jsonl: line 1: expected a JSON object, got list"),
        (
            nb("t.jsonl", '{"A": "h", "ref": "r"}\n{"A": "h", "gold": "r"}\n'),
            {},
            "t.jsonl: line 2: keys differ from line 1 (missing: ['ref'], extra: ['gold'])",
        ),
        (nb("t.xlsx", "A\tref\n"), {}, "t.xlsx: unknown table format '.xlsx'"),
        (nb("t.tsv", "A\tref\n"), {}, "t.tsv: no rows after the header"),
        (nb("t.tsv", "A\tref\tA\nh\tr\th\n"), {}, "t.tsv: line 1: column 'A' appears twice"),
        (nb("t.tsv", "A\t\tref\nh\tx\tr\n"), {}, "t.tsv: line 1: column 2 has an empty name"),
        (nb("t.csv", "\nh,r\n"), {}, "t.csv: line 1: the header row is empty"),
        (nb("t.tsv", "A\tB\nh\tr\n"), {}, "t.tsv: no reference column"),
        (nb("t.tsv", "src\tref\nh\tr\n"), {}, "t.tsv: no system column"),
        (nb("t.tsv", "A\tsrc\tsource\tref\nh\tx\ty\tr\n"), {}, "t.tsv: several source columns"),
        (
            nb("t.tsv", "A\tref\nh\tr\n"),
            {"hyp_columns": ["A"], "ref_columns": ["A"]},
            "t.tsv: a column is given more than one role",
        ),
        (nb("t.tsv", b""), {}, "t.tsv: file is empty"),
        (
            nb("t.tsv", b"A\tref\nh\t\xe2\x82\n"),
            {},
            "t.tsv: invalid UTF-8 at line 2 (byte offset 8)",
        ),
    ],
)
def test_load_table_refuses(f: NamedBytes, kwargs: dict[str, object], message: str) -> None:
    assert message in refused(load_table, f, **kwargs)


# --- WMT XML -------------------------------------------------------------------------------

WMT_XML = """<?xml version="1.0" encoding="utf-8"?>
<dataset id="toy21">
  <collection id="general">
    <doc id="news.1" origlang="en">
      <src lang="en"><p>
        <seg id="1">Fish &amp; chips</seg><seg id="2">A &lt;b&gt; tag</seg>
      </p></src>
      <ref lang="de" translator="A"><p><seg id="1">Fisch &amp; Pommes</seg>
        <seg id="2">Ein  &lt;b&gt;-Tag </seg></p></ref>
      <ref lang="de" translator="B"><p>
        <seg id="1">Fisch und Chips</seg><seg id="2">Ein Tag</seg>
      </p></ref>
      <hyp lang="de" system="sysX"><p>
        <seg id="1">Fisch &amp; Chips</seg><seg id="2">Tag</seg>
      </p></hyp>
      <hyp lang="de" system="sysY"><p>
        <seg id="1">Fische</seg><seg id="2">&quot;Tag&quot;</seg>
      </p></hyp>
    </doc>
    <doc id="news.2" origlang="de">
      <src lang="en"><p><seg id="1">Hello</seg></p></src>
      <ref lang="de" translator="A"><p><seg id="1">Hallo</seg></p></ref>
      <ref lang="de" translator="B"><p><seg id="1">Servus</seg></p></ref>
      <hyp lang="de" system="sysX"><p><seg id="1">Hallo</seg></p></hyp>
      <hyp lang="de" system="sysY"><p><seg id="1"></seg></p></hyp>
    </doc>
  </collection>
</dataset>
"""


def test_wmt_xml() -> None:
    ts = load_xml(nb("toy.xml", WMT_XML))
    assert ts == TestSet(
        systems={"sysX": ("Fisch & Chips", "Tag", "Hallo"), "sysY": ("Fische", '"Tag"', "")},
        references=(
            ("Fisch & Pommes", "Ein <b>-Tag", "Hallo"),
            ("Fisch und Chips", "Ein Tag", "Servus"),
        ),
        source=("Fish & chips", "A <b> tag", "Hello"),
        doc_ids=("news.1", "news.1", "news.2"),
        seg_ids=("1", "2", "1"),
    )


def test_wmt_xml_matches_sacrebleu_reader() -> None:
    fields = WMTXMLDataset._unwrap_wmt21_or_later(io.BytesIO(WMT_XML.encode()))

    def clean(lines: list[str]) -> tuple[str, ...]:  # what sacrebleu applies when writing text
        return tuple(re.sub(r"\s+", " ", line.strip()) for line in lines)

    ts = load_xml(nb("toy.xml", WMT_XML))
    assert ts.source == clean(fields["src"])
    assert set(ts.references) == {clean(fields["ref:A"]), clean(fields["ref:B"])}
    assert ts.systems == {name: clean(fields[name]) for name in ("sysX", "sysY")}
    assert ts.doc_ids == tuple(fields["docid"])


def test_wmt_xml_skips_testsuites_and_unreferenced_segments() -> None:
    xml = """<dataset><collection>
      <doc id="t" testsuite="yes"><src><p><seg id="1">only a test suite</seg></p></src>
        <hyp system="S"><p><seg id="1">x</seg></p></hyp></doc>
      <doc id="d"><src><p><seg id="1">one</seg><seg id="2">two</seg></p></src>
        <ref translator="A"><p><seg id="1">eins</seg><seg id="2"/></p></ref>
        <hyp system="S"><p><seg id="1">eins</seg><seg id="2">zwei</seg></p></hyp></doc>
      <doc id="removed"><src><p><seg id="1">gone</seg></p></src><hyp system="S"><p/></hyp></doc>
    </collection></dataset>"""
    ts = load_xml(nb("t.xml", xml))
    assert (ts.source, ts.systems, ts.doc_ids, ts.seg_ids) == (
        ("one",),
        {"S": ("eins",)},
        ("d",),
        ("1",),
    )


def _xml_doc(body: str) -> str:
    return f"<dataset><collection><doc id='d1'>{body}</doc></collection></dataset>"


_SRC = "<src><p><seg id='1'>a</seg><seg id='2'>b</seg></p></src>"
_REF = "<ref translator='A'><p><seg id='1'>a</seg><seg id='2'>b</seg></p></ref>"
_HYP = "<hyp system='X'><p><seg id='1'>a</seg><seg id='2'>b</seg></p></hyp>"


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        (
            _xml_doc(_SRC + _REF + "<hyp system='X'><p><seg id='1'>a</seg></p></hyp>"),
            "t.xml: doc 'd1': <hyp system='X'> lacks segment '2'",
        ),
        (
            _xml_doc(_SRC + _REF + "<ref translator='B'><p><seg id='2'>b</seg></p></ref>" + _HYP),
            "t.xml: doc 'd1': <ref translator='B'> lacks segment '1'",
        ),
        (
            "<dataset><collection><doc id='d1'>" + _SRC + _REF + _HYP + "</doc>"
            "<doc id='d2'>" + _SRC + _REF + "</doc></collection></dataset>",
            "t.xml: doc 'd2': <hyp system='X'> lacks segment '1'",
        ),
        (
            _xml_doc(_SRC + _REF + _HYP.replace("</p>", "<seg id='3'>c</seg></p>")),
            "t.xml: doc 'd1': <hyp system='X'> has segment '3', which <src> lacks",
        ),
        (
            _xml_doc(_SRC + _REF + _HYP.replace("id='2'", "id='1'")),
            "t.xml: line 1: <hyp system='X'> has segment '1' of doc 'd1' twice",
        ),
        (
            "<dataset>\n<doc id='d'>\n<src><seg id='1'>x</src></doc></dataset>",
            "t.xml: invalid XML at line 3",
        ),
        (
            "<dataset><doc>" + _SRC + _REF + _HYP + "</doc></dataset>",
            "t.xml: line 1: <doc> has no 'id' attribute",
        ),
        (
            _xml_doc(_SRC + _REF + "<hyp><p><seg id='1'>a</seg></p></hyp>"),
            "t.xml: line 1: <hyp> has no 'system' attribute",
        ),
        (_xml_doc(_SRC + _REF), "t.xml: no system outputs found"),
        (_xml_doc(_SRC + _HYP), "t.xml: no references found"),
        ("<dataset><collection/></dataset>", "t.xml: no <src> segments found"),
        (
            '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e "boom">]>' + _xml_doc(_SRC + _REF + _HYP),
            "t.xml: DOCTYPE declarations are not allowed",
        ),
        (_xml_doc(_SRC.replace("a<", "&nbsp;<") + _REF + _HYP), "t.xml: invalid XML at line 1"),
        ("", "t.xml: file is empty"),
    ],
)
def test_load_xml_refuses(xml: str, message: str) -> None:
    assert message in refused(load_xml, nb("t.xml", xml))


def test_xml_external_entities_are_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    xml = f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file://{secret}">]><d>&x;</d>'
    assert "SECRET" not in refused(load_xml, nb("t.xml", xml))


# --- SGML ----------------------------------------------------------------------------------

SRC_SGM = """<srcset setid=toy srclang=en>
<doc docid=news.1 genre=news origlang=en>
<p>
<seg id=1>Fish &amp; chips</seg>
<seg id="2"> A  &lt;b&gt;  tag </seg>
</p>
</doc>
<doc docid="news.2">
<seg id='1'>Hello &#8364;&#x41;</seg>
</doc>
</srcset>
"""
REF_SGM = """<refset setid="toy" srclang="en" trglang="de">
<doc sysid="ref1" docid="news.1"><seg id="1">Fisch &amp; Pommes</seg><seg id="2">Ein Tag</seg></doc>
<doc sysid="ref1" docid="news.2"><seg id="1">Hallo</seg></doc>
<doc sysid="ref2" docid="news.1"><seg id="1">Fisch und Chips</seg><seg id="2">Tag</seg></doc>
<doc sysid="ref2" docid="news.2"><seg id="1">Servus</seg></doc>
</refset>
"""
TST_SGM = """<tstset setid="toy" srclang="en" trglang="de">
<DOC sysid=sysX docid=news.1><SEG id=1>Fisch &quot;&amp;&quot; Chips</SEG><SEG id=2>Tag</SEG></DOC>
<DOC sysid=sysX docid=news.2><SEG id=1>Hallo &amp;lt;</SEG></DOC>
<DOC sysid=sysY docid=news.1><SEG>Fische</SEG><SEG>Tage</SEG></DOC>
<DOC sysid=sysY docid=news.2><SEG id=1></SEG></DOC>
</tstset>
"""
SGML_TESTSET = TestSet(
    systems={"sysX": ('Fisch "&" Chips', "Tag", "Hallo &lt;"), "sysY": ("Fische", "Tage", "")},
    references=(("Fisch & Pommes", "Ein Tag", "Hallo"), ("Fisch und Chips", "Tag", "Servus")),
    source=("Fish & chips", "A <b> tag", "Hello €A"),
    doc_ids=("news.1", "news.1", "news.2"),
    seg_ids=("1", "2", "1"),
)


def test_sgml_files() -> None:
    files = [nb("tst.sgm", TST_SGM), nb("src.sgm", SRC_SGM), nb("ref.sgm", REF_SGM)]
    assert load_sgml_files(files) == SGML_TESTSET


def test_sgml_one_file_holding_all_sets() -> None:
    assert load_xml(nb("all.sgm", SRC_SGM + REF_SGM + TST_SGM)) == SGML_TESTSET


def test_sgml_without_source_follows_first_reference() -> None:
    ts = load_sgml_files([nb("ref.sgm", REF_SGM), nb("tst.sgm", TST_SGM)])
    assert (ts.source, ts.doc_ids, ts.references) == (
        None,
        SGML_TESTSET.doc_ids,
        SGML_TESTSET.references,
    )


def test_sgml_same_sysid_in_two_files_is_disambiguated() -> None:
    ts = load_sgml_files([nb("ref.sgm", REF_SGM), nb("t1.sgm", TST_SGM), nb("t2.sgm", TST_SGM)])
    assert ts.system_names == ("sysX", "sysY", "sysX (2)", "sysY (2)")


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            [
                ("src.sgm", SRC_SGM),
                ("ref.sgm", REF_SGM),
                ("tst.sgm", TST_SGM.replace("<SEG>Tage</SEG>", "")),
            ],
            "tst.sgm: doc 'news.1': <tstset sysid='sysY'> lacks segment '2'",
        ),
        (
            [
                ("src.sgm", SRC_SGM),
                ("ref.sgm", REF_SGM.replace('docid="news.2"', 'docid="news.3"', 1)),
                ("tst.sgm", TST_SGM),
            ],
            "ref.sgm: doc 'news.2': <refset sysid='ref1'> lacks segment '1'",
        ),
        (
            [
                ("src.sgm", SRC_SGM),
                ("ref.sgm", REF_SGM),
                ("tst.sgm", TST_SGM.replace("<SEG>Tage</SEG>", "<SEG>Tage</SEG><SEG>!</SEG>")),
            ],
            "tst.sgm: doc 'news.1': <tstset sysid='sysY'> has segment '3', which <srcset> lacks",
        ),
        (
            [("x.sgm", "<srcset>\n<seg id=1>a</seg>\n</srcset>")],
            "x.sgm: line 2: <seg> outside a <doc>",
        ),
        (
            [("x.sgm", "<refset>\n\n<doc docid=d>\n<seg id=1>a\n</doc></refset>")],
            "x.sgm: line 4: <seg> without </seg>",
        ),
        (
            [("x.sgm", "<refset>\n<doc sysid=r>\n<seg id=1>a</seg></doc></refset>")],
            "x.sgm: line 2: <doc> has no docid",
        ),
        (
            [("x.sgm", "<doc docid=d>\n<seg id=1>a</seg></doc>")],
            "x.sgm: line 1: <doc> outside a set",
        ),
        (
            [
                ("r.sgm", REF_SGM),
                ("x.sgm", "<tstset>\n<doc docid=d>\n<seg id=1>a</seg></doc></tstset>"),
            ],
            "x.sgm: line 2: <doc> in <tstset> has no sysid",
        ),
        ([("x.sgm", "just text\n")], "x.sgm: no <srcset>, <refset> or <tstset> found"),
        ([("a.sgm", SRC_SGM), ("b.sgm", SRC_SGM)], "a.sgm, b.sgm: more than one <srcset> found"),
        ([("s.sgm", SRC_SGM), ("t.sgm", TST_SGM)], "s.sgm, t.sgm: no references found"),
        ([("s.sgm", SRC_SGM), ("r.sgm", REF_SGM)], "s.sgm, r.sgm: no system outputs found"),
        (
            [
                (
                    "s.sgm",
                    SRC_SGM.replace('<seg id="2">', '<seg id=1>dup</seg>\n<seg id="2">'),
                ),
                ("r.sgm", REF_SGM),
            ],
            "s.sgm: line 5: <srcset> has segment '1' of doc 'news.1' twice",
        ),
        (
            [("s.sgm", b"<srcset>\n<doc docid=d>\xc0</doc>")],
            "s.sgm: invalid UTF-8 at line 2 (byte offset 22)",
        ),
        ([], "no SGML file given"),
    ],
)
def test_load_sgml_files_refuses(files: list[tuple[str, str | bytes]], message: str) -> None:
    assert message in refused(load_sgml_files, [nb(name, text) for name, text in files])


# --- load_files ----------------------------------------------------------------------------


def test_load_files_dispatches_on_extensions() -> None:
    plain = load_files([nb("hyp.a.txt", "h\n")], [nb("ref.txt", "r\n")])
    assert plain.systems == {"a": ("h",)}
    table = load_files([nb("set.TSV", "A\tref\nh\tr\n")], [])
    assert table.systems == {"A": ("h",)}
    assert load_files([nb("toy.xml", WMT_XML)], []).system_names == ("sysX", "sysY")
    assert load_files([nb("all.sgml", SRC_SGM + REF_SGM + TST_SGM)], []) == SGML_TESTSET
    sgml = load_files([nb("tst.sgm", TST_SGM)], [nb("ref.sgm", REF_SGM)], nb("src.sgm", SRC_SGM))
    assert sgml == SGML_TESTSET


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (
            [nb("toy.xml", WMT_XML)],
            [nb("ref.txt", "r\n")],
            "toy.xml: a .xml file cannot be read with plain-text files",
        ),
        ([nb("set.tsv", "A\tref\nh\tr\n"), nb("b.txt", "h\n")], [], "set.tsv: a .tsv file"),
        ([nb("tst.sgm", TST_SGM)], [nb("ref.txt", "r\n")], "tst.sgm: a .sgm file"),
        ([nb("hyp.a.txt", "h\n")], [], "no reference file given"),
    ],
)
def test_load_files_refuses(hyps: list[NamedBytes], refs: list[NamedBytes], message: str) -> None:
    assert message in refused(load_files, hyps, refs)
