"""Corpus scores on Dask equal the one-machine scores bit for bit, for any partitioning.

Dask's synchronous scheduler runs the tasks here. The oracles: bleuviz's
one-machine ``Evaluation`` (itself tested against sacrebleu, nltk and
tensorflow/nmt), and sacrebleu's own corpus scores for the sacrebleu metrics.
Partitions: 1, 3 and 7, empty ones among them (``bounds_for``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import sacrebleu

from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.distributed.engine import connect
from bleuviz.distributed.partials import Job
from bleuviz.distributed.run import check_travels, compute, corpus_scores, plan_inputs
from bleuviz.errors import InputError
from bleuviz.io.load import load_paths
from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.registry import get_spec
from bleuviz.metrics.spec import Settings
from tests.distributed.conftest import HYPS, N_SAMPLE, REFS, THREE_REFS, bounds_for

SETTINGS = {
    "sacrebleu": Settings(),
    "nltk": Settings(bleu=BleuConfig(flavor="nltk", smooth="method3")),
    "tf-nmt": Settings(bleu=BleuConfig(flavor="tf-nmt", smooth="add-one")),
    "chrF++ lc": Settings(chrf=ChrfConfig(6, 2, 2, True)),
}
LABELS = ("BLEU", "chrF", "chrF++", "TER")


def _dask_scores(refs: list[str], settings: Settings, parts: int, labels=LABELS):  # type: ignore[no-untyped-def]
    plan = plan_inputs(HYPS, refs, bounds=bounds_for(N_SAMPLE, parts))
    totals = compute(connect("sync"), plan, Job(tuple(labels), settings))
    return {label: corpus_scores(plan, totals, label, settings) for label in labels}


@pytest.mark.parametrize("parts", [1, 3, 7])
@pytest.mark.parametrize("refs", [REFS, THREE_REFS], ids=["2 refs", "3 refs"])
@pytest.mark.parametrize("name", list(SETTINGS))
def test_every_metric_equals_the_one_machine_score(parts: int, refs: list[str], name: str) -> None:
    settings = SETTINGS[name]
    here = Evaluation(load_paths(HYPS, refs), settings)
    on_dask = _dask_scores(refs, settings, parts)
    for label in LABELS:
        for system, scores in here.scores(label).items():
            assert on_dask[label][system].corpus == scores.corpus  # bit for bit, no approx
            assert on_dask[label][system].signature == scores.signature


@pytest.mark.parametrize("parts", [1, 7])
def test_sacrebleu_metrics_equal_sacrebleu(parts: int) -> None:
    refs = [Path(r).read_text(encoding="utf-8").splitlines() for r in THREE_REFS]
    on_dask = _dask_scores(THREE_REFS, Settings(), parts)
    for path in HYPS:
        hyps = Path(path).read_text(encoding="utf-8").splitlines()
        system = Path(path).name.removeprefix("hyp.").rsplit(".", 1)[0]
        oracle = {
            "BLEU": sacrebleu.corpus_bleu(hyps, refs).score,
            "chrF": sacrebleu.corpus_chrf(hyps, refs).score,
            "chrF++": sacrebleu.corpus_chrf(hyps, refs, word_order=2).score,
            "TER": sacrebleu.corpus_ter(hyps, refs).score,
        }
        for label, score in oracle.items():
            assert on_dask[label][system].corpus == score


def test_sentence_scores_go_to_parquet_as_computed_here(tmp_path: Path) -> None:
    settings = Settings()
    out = tmp_path / "sentences"
    out.mkdir()
    plan = plan_inputs(HYPS, REFS, bounds=bounds_for(N_SAMPLE, 7))
    compute(connect("sync"), plan, Job(LABELS, settings, sentence_out=str(out)))
    files = sorted(out.glob("part.*.parquet"))
    assert [f.name for f in files] == [f"part.{i:05d}.parquet" for i in range(7)]
    table = pq.read_table(out).to_pandas().sort_values("segment")
    assert table["segment"].tolist() == list(range(N_SAMPLE))
    here = Evaluation(load_paths(HYPS, REFS), settings)
    for label in LABELS:
        name = get_spec(label).score_name(settings)
        for system, scores in here.scores(label).items():
            np.testing.assert_array_equal(table[f"score:{name}:{system}"], scores.sentence)


def test_a_mecab_tokenizer_is_refused_before_anything_runs() -> None:
    settings = replace(Settings(), tokenize=TokenizeConfig("ja-mecab"))
    with pytest.raises(InputError, match="--tokenize ja-mecab: MeCab's tokenizer cannot travel"):
        check_travels(settings)


def test_fractional_rows_after_integral_partitions_are_summed_in_order(tmp_path: Path) -> None:
    """TER's average reference length is a whole number in the first partition (three
    references of 3 words) and a fraction in the second: the first is asked again for
    its rows, and every row is summed in order as sacrebleu sums them."""
    refs = [tmp_path / f"ref{i}.txt" for i in range(3)]
    texts = [["a b c", "a b", "x y z w"], ["a b d", "a b c", "x y"], ["a c d", "b", "z"]]
    for path, lines in zip(refs, texts, strict=True):
        path.write_text("\n".join(lines) + "\n")
    hyp = tmp_path / "hyp.sys.txt"
    hyp.write_text("a b c\nb a\nw x y z\n")
    plan = plan_inputs([str(hyp)], [str(r) for r in refs], bounds=[0, 1, 3])
    totals = compute(connect("sync"), plan, Job(("TER",), Settings()))
    assert totals.corpus[("TER", "sys")].shape == (3, 2)  # every row
    oracle = sacrebleu.corpus_ter(hyp.read_text().splitlines(), texts).score
    assert corpus_scores(plan, totals, "TER", Settings())["sys"].corpus == oracle


def test_fsspec_urls_in_and_out(tmp_path: Path) -> None:
    """Inputs and --sentence-out through fsspec (its in-memory filesystem stands for an
    object store): the same scores, the sentence files written there."""
    import fsspec

    fs = fsspec.filesystem("memory")
    urls = []
    for path in [*HYPS, *REFS]:
        url = f"memory://bleuviz-test/{Path(path).name}"
        fs.pipe(url, Path(path).read_bytes())
        urls.append(url)
    hyps, refs = urls[: len(HYPS)], urls[len(HYPS) :]
    settings = Settings()
    plan = plan_inputs(hyps, refs, rows=40)
    job = Job(("BLEU", "chrF"), settings, sentence_out="memory://bleuviz-test/out")
    totals = compute(connect("sync"), plan, job)
    here = Evaluation(load_paths(HYPS, REFS), settings)
    for label in ("BLEU", "chrF"):
        on_dask = corpus_scores(plan, totals, label, settings)
        assert {k: v.corpus for k, v in on_dask.items()} == {
            k: v.corpus for k, v in here.scores(label).items()
        }
    assert len(fs.ls("/bleuviz-test/out")) == len(plan.partitions)
    fs.rm("/bleuviz-test", recursive=True)


@pytest.mark.parametrize("parts", [1, 7])
def test_rouge_a_mean_of_sentence_scores_equals_the_one_machine_mean(parts: int) -> None:
    """ROUGE's rows are one F-measure a segment (fractions): they travel whole and are
    averaged on the client exactly as one machine averages them."""
    labels = ("ROUGE-1", "ROUGE-L")
    settings = Settings()
    here = Evaluation(load_paths(HYPS, REFS), settings)
    on_dask = _dask_scores(REFS, settings, parts, labels)
    for label in labels:
        for system, scores in here.scores(label).items():
            assert on_dask[label][system].corpus == scores.corpus


def _needs_a_missing_module(item: int) -> int:
    """A task on a worker without bleuviz fails this way when it is unpickled."""
    raise ModuleNotFoundError("No module named 'bleuviz'", name="bleuviz")


def test_a_worker_without_bleuviz_is_one_line() -> None:
    with pytest.raises(InputError) as caught:
        connect("sync").map(_needs_a_missing_module, [1, 2])
    assert str(caught.value) == (
        "--dask: a worker cannot import bleuviz; install 'bleuviz[dask]' at this version on "
        "every worker"
    )
