"""``score``/``compare`` with ``--dask``: the same stdout, and one line for each refusal.

The synchronous scheduler runs the partitions in this process (the cluster runs
are in tests/distributed/test_cluster.py); the oracle is the command without
``--dask``.
"""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from bleuviz.cli.main import main
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

pytest.importorskip("distributed")

HYPS = [str(p) for p in SAMPLE_HYPS]
REFS = [str(p) for p in SAMPLE_REFS]
SCORE = ["score", "-r", *REFS, "-i", *HYPS]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as e:  # argparse's own errors
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "extra",
    [
        ["-f", "latex", "-m", "bleu", "chrf", "ter", "--chrf-word-order", "2"],
        ["-f", "json", "--flavor", "nltk", "--smooth", "method7"],
        ["-f", "text", "--confidence", "--confidence-n", "100", "--seed", "3"],
        ["-tok", "char", "-lc", "-m", "bleu", "ter", "--ter-normalized"],
    ],
)
def test_stdout_is_the_one_machine_output(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    status, here, _ = _run(capsys, [*SCORE, *extra])
    assert status == 0
    status, out, err = _run(capsys, [*SCORE, *extra, "--dask", "sync", "--partition-rows", "30"])
    assert (status, out) == (0, here)
    assert err == "bleuviz: engine: dask (synchronous scheduler, this process), 5 partitions\n"


def test_compare_stdout_is_the_one_machine_output(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "-r", *REFS, "-i", *HYPS, "--paired-bs", "100", "--paired-ar", "64"]
    argv += ["--metric", "TER", "--all-pairs", "--holm"]
    status, here, _ = _run(capsys, argv)
    assert status == 0
    status, out, _ = _run(capsys, [*argv, "--dask", "sync", "--partition-rows", "60"])
    assert (status, out) == (0, here)


def test_sentence_out_writes_one_file_a_partition(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_dir = tmp_path / "scores"
    argv = [*SCORE, "-m", "bleu", "chrf", "--dask", "sync", "--partition-rows", "50"]
    status, _, _ = _run(capsys, [*argv, "--sentence-out", str(out_dir)])
    assert status == 0
    assert sorted(p.name for p in out_dir.iterdir()) == [f"part.0000{i}.parquet" for i in range(3)]
    table = pq.read_table(out_dir)
    assert table.num_rows == 126
    assert "score:chrF2:literal" in table.column_names
    status, _, err = _run(capsys, [*argv, "--sentence-out", str(out_dir)])
    assert status == 2
    assert (
        err
        == f"bleuviz: error: --sentence-out {out_dir}: the folder is not empty; give a new one\n"
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--partition-rows", "5"], "--partition-rows: only with --dask"),
        (["--sentence-out", "x"], "--sentence-out: only with --dask"),
        (
            ["--dask", "sync", "--sentence-level"],
            "--sentence-level: not with --dask; use --sentence-out DIR: sentence scores are "
            "written by the workers",
        ),
        (
            ["--dask", "sync", "-tok", "ja-mecab"],
            "--tokenize ja-mecab: MeCab's tokenizer cannot travel to Dask workers (a C library "
            "and its dictionary, not picklable); score without --dask",
        ),
        (
            ["--dask", "local:x"],
            "--dask: 'local:x' is not local, local:WORKERS or a scheduler address (tcp://HOST:PORT)",
        ),
    ],
)
def test_refusals_are_one_line(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    status, out, err = _run(capsys, [*SCORE, *extra])
    assert (status, out, err) == (2, "", f"bleuviz: error: {message}\n")


def test_misaligned_files_are_refused_with_the_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    short = tmp_path / "hyp.short.en"
    short.write_text("one line\n")
    argv = ["score", "-r", REFS[0], "-i", str(short), "--dask", "sync"]
    status, _, err = _run(capsys, argv)
    assert status == 2
    assert err == (
        f"bleuviz: error: line counts differ: {REFS[0]} has 126 lines, {short} has 1 line\n"
    )


def test_a_scheduler_that_does_not_answer_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bleuviz.distributed import engine

    monkeypatch.setattr(engine, "CONNECT_TIMEOUT", 2)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    status, out, err = _run(capsys, [*SCORE, "--dask", f"tcp://127.0.0.1:{port}"])
    assert (status, out) == (2, "")
    assert err.startswith(
        f"bleuviz: error: --dask: no Dask scheduler answered at tcp://127.0.0.1:{port} within 2 s"
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize("systems", [1, 3])
def test_tables_score_as_the_one_machine_command_scores_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, systems: int
) -> None:
    """A JSON-lines table on Dask, and the same table as Parquet (several systems: the
    report names systems, not files), print what the one-machine command prints."""
    import json

    import pyarrow as pa

    columns = {"ref": Path(REFS[0]), **{f"hyp.{Path(h).stem}": Path(h) for h in HYPS[:systems]}}
    texts = {name: path.read_text(encoding="utf-8").splitlines() for name, path in columns.items()}
    rows = [dict(zip(texts, cells, strict=True)) for cells in zip(*texts.values(), strict=True)]
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    argv = ["score", "-i", str(jsonl), "-m", "bleu", "chrf", "-f", "json"]
    status, here, _ = _run(capsys, argv)
    assert status == 0
    status, out, _ = _run(capsys, [*argv, "--dask", "sync", "--partition-rows", "50"])
    assert (status, out) == (0, here)
    if systems > 1:
        parquet = tmp_path / "t.parquet"
        pq.write_table(pa.Table.from_pylist(rows), parquet, row_group_size=30)
        dask = ["--dask", "sync", "--partition-rows", "50"]
        status, out, _ = _run(capsys, ["score", "-i", str(parquet), *argv[3:], *dask])
        assert (status, out) == (0, here)


def test_a_server_that_is_not_a_scheduler_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Something listens and answers, but not Dask's protocol (an HTTP server, say)."""
    import threading

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]

        def answer() -> None:
            conn, _ = server.accept()
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 4)

        threading.Thread(target=answer, daemon=True).start()
        status, out, err = _run(capsys, [*SCORE, "--dask", f"tcp://127.0.0.1:{port}"])
    assert (status, out) == (2, "")
    assert err.startswith(f"bleuviz: error: --dask: tcp://127.0.0.1:{port} did not answer as")
    assert err.count("\n") == 1


def test_a_terminal_sees_the_partitions_done(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status, _, err = _run(capsys, [*SCORE, "--dask", "sync", "--partition-rows", "50"])
    assert status == 0
    drawn = [f"\rbleuviz: dask: partition {i} of 3 done" for i in (1, 2, 3)]
    assert err.endswith("".join(drawn) + "\n")  # one line, rewritten in place


@pytest.mark.parametrize(
    ("where", "why"),
    [
        ("foo://scores", "Protocol not known: foo"),  # no such fsspec protocol
        ("s3://bucket/scores", "Install s3fs to access S3"),  # its backend not installed
        ("{tmp}/a-file/scores", "Not a directory"),  # a path that cannot be made
    ],
)
def test_a_sentence_out_that_cannot_be_written_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str, why: str
) -> None:
    if where.startswith("s3:") and importlib.util.find_spec("s3fs") is not None:
        pytest.skip("s3fs is installed here")
    (tmp_path / "a-file").write_text("not a folder")
    url = where.format(tmp=tmp_path)
    status, out, err = _run(capsys, [*SCORE, "--dask", "sync", "--sentence-out", url])
    assert (status, out) == (2, "")
    assert err.startswith(f"bleuviz: error: --sentence-out {url}: cannot write there (")
    assert why in err and err.count("\n") == 1
