"""What a report is built with beside the evaluation: metrics, tests, human score, provenance."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bleuviz.errors import ConfigError
from bleuviz.metrics.spec import Settings
from bleuviz.significance.resampling import DEFAULT_SEED
from bleuviz.significance.resolution import needed_resamples
from bleuviz.workspace.notes import Note

#: Segment x system rows the segment browser holds at most, unless told otherwise.
DEFAULT_MAX_SEGMENTS = 20_000
#: p-values below this are significant (as ``compare``).
ALPHA = 0.05
#: sacrebleu's defaults for --paired-bs and --paired-ar (as ``compare``).
DEFAULT_BS, DEFAULT_AR = 1000, 10000


@dataclass(frozen=True, slots=True)
class InputFile:
    """One input file as the report names it: its role, base name and SHA-256."""

    role: str
    name: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where the report comes from: bleuviz's version, the command line, the date, the inputs."""

    version: str
    command: str
    date: str
    inputs: tuple[InputFile, ...] = ()


@dataclass(frozen=True, slots=True)
class PairedCounts:
    """The paired tests behind the CIs and clusters (as ``compare --all-pairs`` runs them).

    Attributes:
        metric: the metric whose pairs are tested and clustered.
        n_bootstrap: bootstrap resamples (CIs and paired bootstrap).
        n_ar: approximate-randomization trials (0: none).
        seed: both tests' seed.
        holm: whether the pairs' p-values are Holm-adjusted.
    """

    metric: str
    n_bootstrap: int
    n_ar: int
    seed: int = DEFAULT_SEED
    holm: bool = True


def paired_counts(
    metric: str,
    n_systems: int,
    n_bootstrap: int | None = None,
    n_ar: int | None = None,
    seed: int = DEFAULT_SEED,
) -> PairedCounts:
    """The tests ``compare --all-pairs --holm`` runs on ``n_systems`` (Holm past two).

    Unless given, the resamples and trials are sacrebleu's defaults, or as many as
    Holm's correction of every pair needs to reach ``ALPHA`` (``needed_resamples``).
    """
    holm = n_systems > 2
    n_tests = n_systems * (n_systems - 1) // 2 if holm else 1
    return PairedCounts(
        metric,
        n_bootstrap or needed_resamples(n_tests, ALPHA, DEFAULT_BS),
        needed_resamples(n_tests, ALPHA, DEFAULT_AR) if n_ar is None else n_ar,
        seed,
        holm,
    )


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """Everything a report depends on besides the evaluation.

    Attributes:
        metrics: the computed metrics shown beside BLEU (registry labels, BLEU first);
            every imported score is shown too.
        tests: the paired tests' metric and counts.
        provenance: version, command line, date and input files.
        human: the imported score taken as the human one (None: no correlations).
        max_segments: segment x system rows the browser holds at most.
        sample_seed: the seed of the sample past ``max_segments``.
        notes: the saved set's notes on segments.
        set_id: the saved set read (``--set``), if any.
        overrides: settings a metric is scored with instead of the evaluation's
            (chrF's own options), by label.
        title: the report's title.
    """

    metrics: tuple[str, ...]
    tests: PairedCounts
    provenance: Provenance
    human: str | None = None
    max_segments: int = DEFAULT_MAX_SEGMENTS
    sample_seed: int = DEFAULT_SEED
    notes: tuple[Note, ...] = ()
    set_id: str | None = None
    overrides: tuple[tuple[str, Settings], ...] = ()
    title: str = "bleuviz report"

    def __post_init__(self) -> None:
        if self.max_segments < 1:
            raise ConfigError(f"--max-segments: must be at least 1, got {self.max_segments}")

    def settings_for(self, label: str, default: Settings) -> Settings:
        """The settings ``label`` is scored with: its override, else ``default``."""
        return dict(self.overrides).get(label, default)


def file_digest(role: str, path: str | Path) -> InputFile:
    """Name one input file by its base name and the SHA-256 of its bytes.

    Raises:
        ConfigError: the file cannot be read (it was read a moment ago).
    """
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as e:
        raise ConfigError(f"{role}: cannot read {path}: {e.strerror}") from None
    return InputFile(role, Path(path).name, digest.hexdigest())


def build_date(environ: Mapping[str, str] = os.environ) -> str:
    """The date the report states: ``SOURCE_DATE_EPOCH`` (reproducible builds) or now, in UTC.

    Raises:
        ConfigError: ``SOURCE_DATE_EPOCH`` is not a whole number of seconds.
    """
    epoch = environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        moment = datetime.now(UTC)
    elif epoch.strip().isascii() and epoch.strip().isdigit():
        moment = datetime.fromtimestamp(int(epoch), UTC)
    else:
        raise ConfigError(f"SOURCE_DATE_EPOCH: not a whole number of seconds: {epoch[:40]!r}")
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")
