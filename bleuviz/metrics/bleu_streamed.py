"""BLEU of plain-text files read and counted chunk by chunk: memory bounded by the chunk.

The whole-text path (``Evaluation``) holds the text and every system's rows
several times over (statistics, their float matrix, the detail's statistics):
about 1.1 GiB at 1,000,000 segments x 2 references. Here the files are read
in aligned chunks (``bleuviz.io.line_chunks``), each chunk counted as it is
read (``bleuviz.bleu.streamed.streamed_stats``: the same threads or processes),
then reduced (``bleuviz.bleu.summary``): what stays is each system's running
sum and last row, its sentence scores and, for the sentence items of JSON,
its counts and lengths in compact columns. The scores are BLEU's own from
those rows, as on Dask: its corpus score of two rows that sum to the corpus,
and the signature; every number equals the whole-text path's.
``--confidence``'s sacrebleu-identical bootstrap resamples every row: it keeps
their matrix (15 float64 columns a segment at order 4), and no text.

Only BLEU's statistics are read this way; what needs the whole text (other
metrics, imported scores) reads the test set whole.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bleuviz.arrays import FloatArray
from bleuviz.errors import InputError
from bleuviz.io.assemble import build_testset
from bleuviz.io.line_chunks import ByteChunk, byte_chunks, file_sizes
from bleuviz.io.plain import system_name_from_filename
from bleuviz.metrics.bleu_metric import BLEU, sentence_dicts
from bleuviz.metrics.spec import MetricScores, Settings, readonly

# BLEU's counting (pyarrow) is imported where files are counted: ``score -m chrf`` asks
# ``counts_streamed`` and never loads it.
if TYPE_CHECKING:
    from bleuviz.bleu.streamed import Segments
    from bleuviz.bleu.summary import StreamedBleu
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress


@dataclass(frozen=True, slots=True)
class PlainFiles:
    """Plain-text files of one test set: one segment per line in each.

    Attributes:
        hyps: each system's file.
        refs: each reference's file.
        others: the source and document ids, whose lines are checked, not read.
        max_bytes: the size limit of each file.
    """

    hyps: tuple[str, ...]
    refs: tuple[str, ...]
    others: tuple[str, ...]
    max_bytes: int

    @property
    def streams(self) -> tuple[str, ...]:
        """Every file, in the order ``load_plain`` reads them."""
        return (*self.refs, *self.hyps, *self.others)


@dataclass(frozen=True, slots=True)
class StreamedScores:
    """One system's BLEU counted chunk by chunk, as ``score`` reports it.

    Attributes:
        scores: its sentence and corpus scores and signature (every row, if kept).
        rows: every row, if kept; else two rows summing to the corpus's, the last
            the last segment's.
        sentences: makes each segment's JSON item where ``rows`` are two (None:
            not kept, or the rows make them).
    """

    scores: MetricScores
    rows: FloatArray
    sentences: Callable[[], Iterator[dict[str, Any]]] | None


def counts_streamed(labels: Sequence[str]) -> bool:
    """Whether these metrics (the registry's labels) are counted chunk by chunk here:
    BLEU alone; another metric reads the test set whole."""
    return list(labels) == [BLEU.label]


def system_names(hyps: Sequence[str]) -> list[str]:
    """The systems' names, as ``load_plain`` names them (made unique)."""
    return list(_stub_testset(hyps, 1).system_names)


def streamed_bleu(
    files: PlainFiles,
    settings: Settings,
    keep_items: bool = False,
    keep_rows: bool = False,
    progress: Progress | None = None,
) -> dict[str, StreamedScores]:
    """Read and count the files chunk by chunk; return each system's BLEU.

    ``keep_items`` keeps what each segment's JSON item prints beside its score;
    ``keep_rows`` every row (a bootstrap resamples them).
    ``progress`` hears the segments counted and the fraction of the bytes read.

    Raises:
        InputError: no hypothesis or reference file, or a file is refused
            (``bleuviz.io.line_chunks``).
    """
    from bleuviz.bleu.streamed import streamed_budget, streamed_stats
    from bleuviz.bleu.summary import reduce_stats

    if not files.hyps:
        raise InputError("no hypothesis file given: at least one is required")
    if not files.refs:
        raise InputError("no reference file given: at least one is required")
    order = [*files.hyps, *files.refs, *files.others]  # load_paths's: the same file refused
    sizes = file_sizes(order, files.max_bytes)
    # Bytes for characters: the same for ASCII, more otherwise (processes then start sooner).
    characters = sum(sizes[: len(files.hyps) + len(files.refs)])
    workers, tokenize = settings.workers, settings.tokenize
    budget = streamed_budget(characters, tokenize, workers)
    told = _Told(progress, sum(sizes))
    chunks = told.reading(byte_chunks(files.streams, budget, files.max_bytes))
    stub = _stub_testset(files.hyps, len(files.refs))
    names = stub.system_names
    segments = (_Chunk(chunk, names, len(files.refs)) for chunk in chunks)
    parts = told.counted(
        streamed_stats(segments, tokenize, settings.bleu.stats_order, workers, characters)
    )
    reduced = reduce_stats(parts, settings.bleu, keep_items and not keep_rows, keep_rows)
    return {name: _scores(result, stub, settings) for name, result in reduced.items()}


@dataclass(frozen=True, slots=True)
class _Chunk:
    """A chunk of the files, undecoded, and how its files are read: the systems' names and
    the references' count (``bleuviz.bleu.streamed.Undecoded``: a worker decodes it)."""

    chunk: ByteChunk
    names: tuple[str, ...]
    n_refs: int

    def segments(self) -> Segments:
        """The chunk's systems by name and its references (the other files' lines dropped)."""
        lines = self.chunk.decoded().lines[: self.n_refs + len(self.names)]
        return dict(zip(self.names, lines[self.n_refs :], strict=True)), lines[: self.n_refs]


def _scores(result: StreamedBleu, stub: TestSet, settings: Settings) -> StreamedScores:
    """BLEU's scores of one system's reduction (its own corpus score and signature)."""
    every = None if result.rows is None else readonly(result.rows)
    rows = readonly(result.corpus.to_matrix()) if every is None else every
    scores = MetricScores(
        BLEU,
        readonly(result.sentence),
        BLEU.corpus_score(rows, settings),
        BLEU.signature(stub, settings, rows),
        every,
    )
    columns = result.columns
    if columns is None:
        return StreamedScores(scores, rows, None)
    return StreamedScores(
        scores,
        rows,
        lambda: sentence_dicts(result.sentence, columns),
    )


def _stub_testset(hyps: Sequence[str], n_refs: int) -> TestSet:
    """A one-segment test set with the systems named as ``load_plain`` names the files
    ``hyps`` (made unique) and ``n_refs`` references: what a signature reads."""
    names = [system_name_from_filename(path) for path in hyps]
    return build_testset([(name, ("",)) for name in names], [("",)] * n_refs)


@dataclass(slots=True)
class _Told:
    """What progress hears: segments counted, and the bytes read up to the last one counted."""

    progress: Progress | None
    size: int
    segments: int = 0
    read: deque[int] = field(default_factory=deque)

    def reading(self, chunks: Iterator[ByteChunk]) -> Iterator[ByteChunk]:
        """Note each chunk's bytes read as it is read."""
        for chunk in chunks:
            self.read.append(chunk.read)
            yield chunk

    def counted(self, parts: Iterator[Any]) -> Iterator[Any]:
        """Tell ``progress`` of each chunk counted, in order."""
        self._tell(0)
        for part in parts:
            self.segments += len(next(iter(part.values())))
            self._tell(self.read.popleft())
            yield part

    def _tell(self, read: int) -> None:
        if self.progress is not None:
            fraction = read / self.size if self.size else 1.0
            self.progress(f"{self.segments:,} segments, {fraction:.0%} of the input read", fraction)
