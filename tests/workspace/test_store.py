"""Saving, loading, listing, renaming and deleting test sets in a workspace."""

from __future__ import annotations

import dataclasses
import hashlib
import sqlite3
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.errors import InputError, UnknownTestSet
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.scores import build_scores
from bleuviz.io.testset import TestSet
from bleuviz.workspace import DB_NAME, TRASH_DAYS, DefiningStreams, Workspace
from bleuviz.workspace.codec import decompress
from bleuviz.workspace.identity import testset_id as id_of
from tests.data import SAMPLE_HYPS
from tests.workspace.conftest import assert_same_testset, sample_testset


def test_sample_round_trips_exactly(workspace: Workspace) -> None:
    testset = sample_testset()
    assert testset.seg_scores and any(np.isnan(testset.seg_score("human").values["literal"]))
    saved = workspace.save_testset(testset, "sample")
    assert_same_testset(workspace.load(saved.id), testset)
    assert saved.systems == ("literal", "terse", "repeat")
    assert (saved.n_segments, saved.n_refs, saved.name) == (126, 2, "sample")
    assert saved.added.tzinfo == UTC


def test_every_stored_stream_carries_the_digest_of_its_own_lines(workspace: Workspace) -> None:
    """Each row's digest is SHA-256 of its stored payload (references, source, ids, systems),
    whether the caller handed its ``DefiningStreams`` to the save or not."""
    testset = sample_testset()
    for defining in (None, DefiningStreams.of(testset)):
        folder = Workspace.open(Path(tempfile.mkdtemp()))
        folder.save_testset(testset, "sample", defining)
        with sqlite3.connect(folder.folder / DB_NAME) as conn:
            streams = conn.execute("SELECT kind, digest, lines FROM streams").fetchall()
        kinds = sorted(kind for kind, _, _ in streams)
        assert kinds == ["doc_ids", "reference", "reference", "source", *["system"] * 3]
        for _, stored, blob in streams:
            assert stored == hashlib.sha256(decompress(blob)).hexdigest()


def test_a_reopened_workspace_loads_the_same(tmp_path: Path) -> None:
    testset = sample_testset()
    set_id = Workspace.open(tmp_path).save_testset(testset, "sample").id
    assert_same_testset(Workspace.open(tmp_path).load(set_id), testset)


lines = st.text(st.characters(blacklist_categories=["Cs"]), max_size=30)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(1, 6))
def test_any_text_and_optional_streams_round_trip(data: st.DataObject, n: int) -> None:
    """Tabs, newlines, quotes, NUL and any Unicode; absent streams stay absent."""
    stream = st.lists(lines, min_size=n, max_size=n).map(tuple)
    optional = st.none() | stream
    testset = TestSet(
        systems={
            name: data.draw(stream) for name in data.draw(st.lists(lines, max_size=3, unique=True))
        },
        references=tuple(data.draw(st.lists(stream, min_size=1, max_size=3))),
        source=data.draw(optional),
        doc_ids=data.draw(optional),
        seg_ids=data.draw(optional),
    )
    with tempfile.TemporaryDirectory() as folder:  # a fresh workspace per example
        workspace = Workspace.open(folder)
        saved = workspace.save_testset(testset, "any")
        assert saved.systems == tuple(testset.systems)
        assert_same_testset(workspace.load(saved.id), testset)


def test_the_same_files_give_the_same_id_and_one_set(workspace: Workspace) -> None:
    first = workspace.save_testset(sample_testset(), "first")
    again = workspace.save_testset(sample_testset(), "second upload")
    assert again.id == first.id == id_of(sample_testset())
    assert [s.id for s in workspace.testsets()] == [first.id]
    assert again == first  # name and time kept: the second upload is a no-op


def test_the_id_ignores_systems_but_not_the_task() -> None:
    testset = sample_testset(scores=False)
    one_system = sample_testset(SAMPLE_HYPS[:1], scores=False)
    assert id_of(one_system) == id_of(testset)
    changed_ref = dataclasses.replace(
        testset, references=(testset.references[0], ("x",) * testset.n_segments)
    )
    for other in (
        changed_ref,
        dataclasses.replace(testset, references=testset.references[::-1]),
        dataclasses.replace(testset, source=None),
        dataclasses.replace(testset, doc_ids=None),
        dataclasses.replace(testset, seg_ids=tuple(str(i + 1) for i in range(126))),
    ):
        assert id_of(other) != id_of(testset)


def test_an_upload_with_more_systems_adds_them_to_the_saved_set(workspace: Workspace) -> None:
    first = workspace.save_testset(sample_testset(SAMPLE_HYPS[:1], scores=False), "one")
    merged = workspace.save_testset(sample_testset(SAMPLE_HYPS[1:], scores=False), "other name")
    assert merged.id == first.id and merged.name == "one" and merged.added == first.added
    assert merged.systems == ("literal", "terse", "repeat")
    assert_same_testset(workspace.load(first.id), sample_testset(scores=False))


def test_a_system_with_new_lines_replaces_the_old_and_its_scores(workspace: Workspace) -> None:
    testset = sample_testset()
    set_id = workspace.save_testset(testset, "sample").id
    new_lines = tuple(line.upper() for line in testset.systems["terse"])
    upload = dataclasses.replace(testset, systems={"terse": new_lines}, seg_scores=())
    workspace.save_testset(upload, "x", replace=True)
    loaded = workspace.load(set_id)
    assert loaded.system_names == testset.system_names  # position kept
    assert loaded.systems["terse"] == new_lines
    assert loaded.systems["literal"] == testset.systems["literal"]
    for scores in loaded.seg_scores:  # the old lines' scores are gone, the others' kept
        assert "terse" not in scores.values
        assert "literal" in scores.values


def test_scores_of_one_metric_merge_per_system(workspace: Workspace) -> None:
    testset = sample_testset(scores=False)
    n, names = testset.n_segments, testset.system_names

    def metric(values: dict[str, list[float]], origin: str) -> TestSet:
        scores = build_scores(origin, "m", values, names, n)
        return testset.with_seg_scores((scores,))

    set_id = workspace.save_testset(metric({"literal": [0.5] * n}, "a.seg.score"), "s").id
    workspace.save_testset(metric({"terse": [0.25] * n}, "b.seg.score"), "s")
    scores = workspace.load(set_id).seg_score("m")
    assert scores.origin == "b.seg.score"
    assert list(scores.values) == ["literal", "terse"]
    assert scores.values["literal"].tolist() == [0.5] * n
    assert scores.values["terse"].tolist() == [0.25] * n


def test_scores_the_user_replaces_lose_every_old_system(workspace: Workspace) -> None:
    """A file chosen to replace a metric's scores replaces it whole, not per system."""
    testset = sample_testset(scores=False)
    n, names = testset.n_segments, testset.system_names

    def metric(values: dict[str, list[float]], origin: str) -> TestSet:
        return testset.with_seg_scores((build_scores(origin, "m", values, names, n),))

    both = {"literal": [0.5] * n, "terse": [0.75] * n}
    set_id = workspace.save_testset(metric(both, "a.seg.score"), "s").id
    workspace.save_testset(metric({"terse": [0.25] * n}, "b.seg.score"), "s", replace_scores=("m",))
    scores = workspace.load(set_id).seg_score("m")
    assert scores.origin == "b.seg.score"
    assert list(scores.values) == ["terse"]
    assert scores.values["terse"].tolist() == [0.25] * n


def test_add_system_keeps_the_id_and_checks_the_count(workspace: Workspace) -> None:
    saved = workspace.save_testset(sample_testset(SAMPLE_HYPS[:2], scores=False), "two")
    lines = sample_testset(scores=False).systems["repeat"]
    after = workspace.add_system(saved.id, "checkpoint 3", lines)
    assert after.id == saved.id and after.systems == ("literal", "terse", "checkpoint 3")
    assert workspace.load(saved.id).systems["checkpoint 3"] == lines
    with pytest.raises(InputError, match=r"system 'short': 2 lines, but test set \w+ has 126"):
        workspace.add_system(saved.id, "short", ["a", "b"])
    with pytest.raises(InputError, match="system name: must not be empty"):
        workspace.add_system(saved.id, " ", lines)
    assert workspace.get(saved.id) == after


def test_listing_is_newest_first(workspace: Workspace) -> None:
    names = []
    for k in range(3):
        testset = TestSet(systems={"s": ("a",)}, references=((f"ref {k}",),))
        names.append(workspace.save_testset(testset, f"set {k}").name)
    listed = workspace.testsets()
    assert [s.name for s in listed] == names[::-1]
    assert [s.added for s in listed] == sorted((s.added for s in listed), reverse=True)


def test_rename_and_delete(workspace: Workspace) -> None:
    testset = sample_testset()
    marked = SegmentAnnotation(("r",), (ErrorSpan(0, 1, "minor", "Style", "r"),))
    spans = ErrorAnnotations("MQM", "m.tsv", HUMAN, {"terse": (marked,) * testset.n_segments})
    saved = workspace.save_testset(testset.with_error_spans((spans,)), "old")
    workspace.save_note(saved.id, "terse", 3, "drops the verb", "omission")
    workspace.rename(saved.id, "  new\tname ")
    assert workspace.get(saved.id).name == "new name"
    with pytest.raises(InputError, match="name: a test set's name must not be empty"):
        workspace.rename(saved.id, "\n")
    workspace.delete(saved.id)
    assert workspace.testsets() == ()
    assert [s.id for s in workspace.trash()] == [saved.id]
    assert workspace.purge_trash(datetime.now(UTC) + timedelta(days=TRASH_DAYS + 1)) == 1
    tables = ("streams", "seg_scores", "seg_score_values", "notes", "note_revisions")
    tables += ("error_spans", "error_span_values")
    with sqlite3.connect(workspace.folder / DB_NAME) as conn:  # nothing of it is left behind
        for table in tables:
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
    conn.close()
    again = workspace.save_testset(sample_testset(), "again")
    assert again.id == saved.id and workspace.notes(saved.id) == ()  # its notes went with it


@pytest.mark.parametrize(
    "call", ["get", "load", "delete", "notes", "notes_tsv", "notes_mqm", "error_span_names"]
)
def test_an_unknown_id_is_one_line_naming_it(workspace: Workspace, call: str) -> None:
    with pytest.raises(UnknownTestSet) as caught:
        getattr(workspace, call)("feedbeef")
    assert str(caught.value) == f"set=feedbeef: no such test set in workspace {workspace.folder}"


def test_unknown_id_on_writes(workspace: Workspace) -> None:
    with pytest.raises(UnknownTestSet, match="set=nope"):
        workspace.rename("nope", "x")
    with pytest.raises(UnknownTestSet, match="set=nope"):
        workspace.add_system("nope", "x", ["a"])
    with pytest.raises(UnknownTestSet, match="set=nope"):
        workspace.save_note("nope", "x", 0, "", "other")
