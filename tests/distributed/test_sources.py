"""Partitions read what the one-machine readers read: lines, tables and Parquet.

The oracle is bleuviz's own one-machine reader of the whole file
(``decode_lines``, ``load_table``): every partition's text, put back together,
must be the whole file's, for any cut, empty partitions included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuviz.distributed.run import plan_inputs
from bleuviz.distributed.sources import read_partition, scan
from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes, decode_lines
from bleuviz.io.load import load_paths
from bleuviz.io.table import load_table

# Lines with the separators that matter: CR before LF, a lone CR, empty lines, non-ASCII.
line_text = st.text(
    alphabet=st.sampled_from(["a", "b", " ", "\r", "é", "\t", "\u2028"]), max_size=6
)


def _joined(plan_parts: list, layout) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """Every stream's lines, the partitions read one after another."""
    out: dict[str, list[str]] = {}
    for part in plan_parts:
        testset = read_partition(part, layout)
        if testset is None:
            assert part.size == 0
            continue
        assert testset.n_segments == part.size
        for name, lines in testset.systems.items():
            out.setdefault(name, []).extend(lines)
        for i, ref in enumerate(testset.references):
            out.setdefault(f"ref{i}", []).extend(ref)
    return out


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(line_text, min_size=1, max_size=12),
    crlf=st.booleans(),
    bom=st.booleans(),
    final=st.booleans(),
    data=st.data(),
)
def test_line_partitions_put_together_are_the_file(
    tmp_path: Path, lines: list[str], crlf: bool, bom: bool, final: bool, data: st.DataObject
) -> None:
    end = "\r\n" if crlf else "\n"
    text = end.join(lines) + (end if final else "")
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    if not raw.removeprefix(b"\xef\xbb\xbf"):
        raw += b"x"
    path = tmp_path / "hyp.x.txt"
    path.write_bytes(raw)
    expected = list(decode_lines(NamedBytes(str(path), raw)))
    n = len(expected)
    inner = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
    plan = plan_inputs([str(path)], [str(path)], bounds=[0, *inner, n])
    assert plan.n_segments == n
    joined = _joined(list(plan.partitions), plan.layout)
    assert joined["x"] == expected
    assert joined["ref0"] == expected


def test_scan_notes_every_kth_line_start(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"\xef\xbb\xbfab\ncd\r\n\nlast")
    n, starts, size = scan(str(path), 2)
    assert (n, list(starts), size) == (4, [3, 10], 15)  # lines 0 and 2


def test_misaligned_files_are_refused_with_every_count(tmp_path: Path) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.short.txt"
    ref.write_text("a\nb\nc\n")
    hyp.write_text("a\nb\n")
    with pytest.raises(InputError) as caught:
        plan_inputs([str(hyp)], [str(ref)])
    one_machine = pytest.raises(InputError)
    with one_machine as theirs:
        load_paths([hyp], [ref])
    assert str(caught.value) == str(theirs.value)
    assert str(caught.value) == f"line counts differ: {ref} has 3 lines, {hyp} has 2 lines"


def test_invalid_utf8_names_the_line_and_byte_as_the_one_machine_reader(tmp_path: Path) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.bad.txt"
    ref.write_text("a\nb\nc\nd\n")
    hyp.write_bytes(b"a\nb\nc\xff\nd\n")
    plan = plan_inputs([str(hyp)], [str(ref)], rows=2)
    with pytest.raises(InputError) as caught:
        read_partition(plan.partitions[1], plan.layout)
    with pytest.raises(InputError) as theirs:
        load_paths([hyp], [ref])
    assert str(caught.value) == str(theirs.value)


@pytest.mark.parametrize("fmt", ["jsonl", "tsv", "parquet"])
@pytest.mark.parametrize("bounds", [[0, 5], [0, 0, 2, 5], [0, 1, 1, 3, 5, 5]])
def test_tables_read_as_the_table_reader_reads_them(
    tmp_path: Path, fmt: str, bounds: list[int]
) -> None:
    rows = [
        {"src": f"s{i}", "hyp.one": f"x {i} y", "ref": f"x {i}", "two": '"q" é', "ref2": ""}
        for i in range(5)
    ]
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    whole = load_table(NamedBytes(str(jsonl), jsonl.read_bytes()))
    path = tmp_path / f"t.{fmt}"
    if fmt == "tsv":
        header = list(rows[0])
        body = "".join("\t".join(row[c] for c in header) + "\n" for row in rows)
        path.write_text("\t".join(header) + "\n" + body)
    elif fmt == "parquet":
        pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=2)
    plan = plan_inputs([str(path)], [], bounds=bounds)
    assert plan.layout.systems == tuple(whole.systems)
    joined = _joined(list(plan.partitions), plan.layout)
    for name, lines in whole.systems.items():
        assert joined[name] == list(lines)
    for i, ref in enumerate(whole.references):
        assert joined[f"ref{i}"] == list(ref)


def test_a_table_row_refused_names_the_file_and_where(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"ref": "a", "sys": "b"}\n{"ref": "a", "sys": 3}\n')
    plan = plan_inputs([str(path)], [], rows=1)
    with pytest.raises(InputError, match=r"t\.jsonl: line 2: the value of 'sys' is not a string"):
        read_partition(plan.partitions[1], plan.layout)


def test_a_parquet_column_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"ref": ["a", "b"], "sys": [1, 2]}), path)
    plan = plan_inputs([str(path)], [])
    with pytest.raises(InputError, match="column 'sys' holds int64, not text"):
        read_partition(plan.partitions[0], plan.layout)


def test_csv_is_refused_on_dask(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("ref,sys\na,b\n")
    with pytest.raises(InputError, match=r"--dask reads plain files, or one \.jsonl"):
        plan_inputs([str(path)], [])


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf"])
def test_an_empty_file_is_refused_as_the_one_machine_reader_refuses_it(
    tmp_path: Path, data: bytes
) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.empty.txt"
    ref.write_text("a\n")
    hyp.write_bytes(data)
    with pytest.raises(InputError) as caught:
        plan_inputs([str(hyp)], [str(ref)])
    with pytest.raises(InputError) as theirs:
        load_paths([hyp], [ref])
    assert str(caught.value) == str(theirs.value) == f"{hyp}: file is empty"


def test_a_folder_of_parquet_files_is_one_table_in_name_order(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    pq.write_table(pa.table({"ref": ["c", "d"], "sys": ["C", "D"]}), folder / "part-1.parquet")
    pq.write_table(pa.table({"ref": ["a", "b"], "sys": ["A", "B"]}), folder / "part-0.parquet")
    for url in (str(folder), f"{folder}/", f"{folder}/*.parquet"):
        plan = plan_inputs([url], [], bounds=[0, 1, 3, 4])
        joined = _joined(list(plan.partitions), plan.layout)
        assert joined == {"sys": ["A", "B", "C", "D"], "ref0": ["a", "b", "c", "d"]}
