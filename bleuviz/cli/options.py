"""Command-line options shared by ``score`` and ``compare``, and their conversion to configs."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from bleuviz.bleu import DEFAULT_FLAVOR, DEFAULT_ORDER, FLAVORS, BleuConfig
from bleuviz.bleu.orders import MAX_ORDER
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TOKENIZERS, TokenizeConfig
from bleuviz.errors import ConfigError, InputError
from bleuviz.io.decode import (
    DEFAULT_MAX_BYTES,
    NamedBytes,
    check_size_and_emptiness,
    read_at_most,
    read_path,
)
from bleuviz.io.error_span_files import SEG_RATING_SUFFIX, attach_error_spans, rescore
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.io.esa_records import pair_note
from bleuviz.io.load import load_files, load_paths
from bleuviz.io.mqm_score import DEFAULT_WEIGHTS_SPEC, parse_weights
from bleuviz.io.scores import SegmentScores
from bleuviz.io.seg_scores import SEG_SCORE_SUFFIX, attach_seg_scores, set_directions
from bleuviz.io.testset import TestSet
from bleuviz.jobs import JOBS_ENV, job_count
from bleuviz.limits import (
    DECIMAL,
    MAX_CHRF_BETA,
    MAX_CHRF_ORDER,
    MAX_SMOOTH_VALUE,
    MAX_WEIGHT,
    WHOLE_NUMBER,
)
from bleuviz.metrics.chrf_score import BETA, CHAR_ORDER, WORD_ORDER, ChrfConfig
from bleuviz.metrics.registry import METRICS, imported_specs
from bleuviz.workspace.location import WORKSPACE_ENV

if TYPE_CHECKING:
    from bleuviz.metrics.evaluation import Evaluation
    from bleuviz.metrics.spec import Settings
    from bleuviz.metrics.ter_config import TerConfig
    from bleuviz.workspace.store import Workspace

#: ``--metrics`` names (sacrebleu's ``-m`` spelling: the registry's labels in lower case),
#: and the metric each names, in the registry's order.
SCORE_METRICS = {label.casefold(): label for label in METRICS}


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr with exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: an ASCII integer from ``minimum`` to ``maximum``.

    argparse prefixes the message with the option (``argument --paired-bs: at most
    1,000,000, got 2,000,000``) and exits with status 2. ``int`` alone would also
    read ``1_000`` and other scripts' digits.
    """

    def parse(text: str) -> int:
        if not WHOLE_NUMBER.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}")
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum:,}, got {value:,}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"at most {maximum:,}, got {value:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def finite_number(text: str) -> float:
    """An argparse ``type``: a finite ASCII decimal (``nan``, ``inf``, ``1e999`` refused).

    ``float`` alone would also read ``1_0``, other scripts' digits and ``nan``.
    """
    value = float(text) if DECIMAL.fullmatch(text.strip()) else math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text[:40]!r}")
    return value


def number_up_to(maximum: float) -> Callable[[str], float]:
    """An argparse ``type``: a finite ASCII decimal of at most ``maximum``.

    The lower bound, where it depends on other options (a smoothing's value), is
    the core config's to check.
    """

    def parse(text: str) -> float:
        value = finite_number(text)
        if value > maximum:
            raise argparse.ArgumentTypeError(f"at most {maximum:,}, got {text[:40]}")
        return value

    parse.__name__ = "finite number"
    return parse


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """Add --ref/--hyp/--src/--docids and the size limit."""
    parser.add_argument(
        "--ref",
        "-r",
        nargs="+",
        default=[],
        metavar="REF",
        help="reference files (not needed when --hyp is one table holding reference columns)",
    )
    parser.add_argument(
        "--hyp",
        "-i",
        nargs="+",
        default=[],
        metavar="HYP",
        help="system outputs; - reads one system from standard input",
    )
    parser.add_argument("--src", metavar="SRC", help="source file (optional)")
    parser.add_argument("--docids", metavar="FILE", help="one document id per line (optional)")
    parser.add_argument(
        "--max-bytes",
        type=whole_number(1),
        default=DEFAULT_MAX_BYTES,
        help="refuse larger files (%(default)s)",
    )
    add_seg_score_options(parser)
    parser.add_argument(
        "--set",
        metavar="ID",
        help="a test set saved in the workspace (see add and list), read instead of files",
    )
    add_workspace_option(parser)


def add_workspace_option(parser: argparse.ArgumentParser) -> None:
    """Add --workspace (default: $BLEUVIZ_WORKSPACE, else the per-user data folder)."""
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help=f"workspace folder (default: ${WORKSPACE_ENV}, else a per-user data folder)",
    )


def add_seg_score_options(parser: argparse.ArgumentParser) -> None:
    """Add --seg-scores and the direction overrides of imported metrics."""
    parser.add_argument(
        "--seg-scores",
        nargs="+",
        default=[],
        metavar="FILE",
        help=f"segment scores from outside: NAME{SEG_SCORE_SUFFIX} (mt-metrics-eval) or COMET's "
        "--to_json output",
    )
    parser.add_argument(
        "--mqm",
        nargs="+",
        default=[],
        metavar="FILE",
        help="error spans from outside: Google's MQM TSV, mt-metrics-eval "
        f"NAME{SEG_RATING_SUFFIX}, WMT24 ESA JSON lines, Appraise's ESA CSV export, or COMET's "
        "JSON with xCOMET "
        "error_spans; adds their score (MQM, ESA, the metric's) as an imported segment score",
    )
    parser.add_argument(
        "--mqm-weights",
        default=None,
        metavar="WEIGHTS",
        help="MQM error weights, SEVERITY[/CATEGORY[/SUB]]:WEIGHT, most specific match wins "
        f"(default, mt-metrics-eval's: {DEFAULT_WEIGHTS_SPEC}); also re-weighs the spans of "
        "a --set saved with them",
    )
    parser.add_argument(
        "--lower-is-better", nargs="+", default=[], metavar="NAME", help="imported error scores"
    )
    parser.add_argument(
        "--higher-is-better",
        nargs="+",
        default=[],
        metavar="NAME",
        help="override the default (MetricX names: lower is better)",
    )


#: The output formats a command may write with ``--format``; the first is the default.
FORMATS = ("text", "json", "latex")


def add_bleu_options(parser: argparse.ArgumentParser, formats: tuple[str, ...] = FORMATS) -> None:
    """Add tokenizer, flavour, smoothing, order and weight options, and ``--format``.

    Args:
        parser: the subcommand's parser.
        formats: the formats the command writes (the first is the default), so that
            ``--help`` lists only those and argparse refuses the others.
    """
    parser.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=DEFAULT_TOKENIZER)
    parser.add_argument("--lowercase", "-lc", action="store_true")
    parser.add_argument("--flavor", choices=list(FLAVORS), default=DEFAULT_FLAVOR)
    smoothing = "; ".join(f"{n}: {' '.join(f.smoothing)}" for n, f in FLAVORS.items())
    parser.add_argument("--smooth", "-s", help=smoothing)
    parser.add_argument(
        "--smooth-value",
        "-sv",
        type=number_up_to(MAX_SMOOTH_VALUE),
        help=f"floor and add-k: 0 to {MAX_SMOOTH_VALUE:,} (defaults 0.1 and 1)",
    )
    parser.add_argument(
        "--max-order",
        type=whole_number(1, MAX_ORDER),
        default=None,
        help=f"highest n-gram order, 1 to {MAX_ORDER} (default: {DEFAULT_ORDER})",
    )
    parser.add_argument(
        "--weights",
        type=number_up_to(MAX_WEIGHT),
        nargs="+",
        help=f"per-order weights, each 0 to {MAX_WEIGHT}",
    )
    parser.add_argument("--effective-order", action="store_true")
    parser.add_argument("--auto-reweigh", action="store_true", help="nltk's auto_reweigh")
    parser.add_argument("--format", "-f", choices=formats, default=formats[0])


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--jobs`` (``bleuviz.jobs.job_count`` reads it, ``$BLEUVIZ_JOBS`` and the cores)."""
    parser.add_argument(
        "--jobs",
        type=whole_number(1),
        metavar="N",
        help=f"worker processes that count large inputs (default: ${JOBS_ENV}, else one per "
        "usable core); 1 counts in this process; no number changes",
    )


def add_metric_options(parser: argparse.ArgumentParser) -> None:
    """Add ``-m`` and sacrebleu's chrF and TER options, spelled as sacrebleu spells them."""
    parser.add_argument(
        "--metrics",
        "-m",
        nargs="+",
        type=str.lower,
        choices=list(SCORE_METRICS),
        default=["bleu"],
        help="metrics to compute (default: bleu); chrf++ is chrf with word order 2",
    )
    chrf = parser.add_argument_group("chrF (sacrebleu's options)")
    order = whole_number(0, MAX_CHRF_ORDER)
    chrf.add_argument(
        "--chrf-char-order", "-cc", type=order, default=CHAR_ORDER, help=f"0 to {MAX_CHRF_ORDER}"
    )
    chrf.add_argument(
        "--chrf-word-order",
        "-cw",
        type=order,
        default=None,
        help=f"0 to {MAX_CHRF_ORDER} (default: {WORD_ORDER} for chrf, 2 for chrf++)",
    )
    chrf.add_argument(
        "--chrf-beta",
        type=whole_number(1, MAX_CHRF_BETA),
        default=BETA,
        help=f"1 to {MAX_CHRF_BETA}",
    )
    chrf.add_argument("--chrf-lowercase", action="store_true")
    ter = parser.add_argument_group("TER (sacrebleu's options)")
    ter.add_argument("--ter-case-sensitive", action="store_true")
    ter.add_argument("--ter-asian-support", action="store_true")
    ter.add_argument("--ter-no-punct", action="store_true")
    ter.add_argument("--ter-normalized", action="store_true")
    rouge = parser.add_argument_group("ROUGE (rouge-score's options)")
    rouge.add_argument(
        "--rouge-stemmer",
        action="store_true",
        help="Porter-stem tokens longer than 3 characters (as rouge --stemmer)",
    )


def chrf_config(args: argparse.Namespace, own_word_order: int = WORD_ORDER) -> ChrfConfig:
    """Build the ChrfConfig the ``--chrf-*`` options describe for chrF or chrF++.

    Args:
        args: the options.
        own_word_order: the metric's own word n-gram order (0 for chrF, 2 for chrF++),
            used when ``--chrf-word-order`` is not given.

    Raises:
        ConfigError: an order below 0, both orders 0, a beta below 1, or chrF++ with
            another word order (that is chrF with that order: ``-m chrf``).
    """
    word_order = args.chrf_word_order
    if own_word_order and word_order not in (None, own_word_order):
        raise ConfigError(
            f"--chrf-word-order: chrf++ counts word n-grams to order {own_word_order}, "
            f"got {word_order}; use -m chrf --chrf-word-order {word_order}"
        )
    if word_order is None:
        word_order = own_word_order
    return ChrfConfig(args.chrf_char_order, word_order, args.chrf_beta, args.chrf_lowercase)


def ter_config(args: argparse.Namespace) -> TerConfig:
    """Build the TerConfig the ``--ter-*`` options describe."""
    from bleuviz.metrics.ter_config import TerConfig  # TER's modules, for TER only

    return TerConfig(
        normalized=args.ter_normalized,
        no_punct=args.ter_no_punct,
        asian_support=args.ter_asian_support,
        case_sensitive=args.ter_case_sensitive,
    )


def bleu_config(args: argparse.Namespace) -> BleuConfig:
    """Build the BleuConfig the options describe."""
    weights = tuple(args.weights) if args.weights else None
    # An explicit --max-order, even 0, goes to BleuConfig, which refuses what is out of range.
    max_order = args.max_order
    if max_order is None:
        max_order = len(weights) if weights else DEFAULT_ORDER
    return BleuConfig(
        flavor=args.flavor,
        max_order=max_order,
        weights=weights,
        smooth=args.smooth,
        smooth_value=args.smooth_value,
        effective_order=args.effective_order,
        auto_reweigh=args.auto_reweigh,
    )


def load_testset(args: argparse.Namespace) -> tuple[TestSet, list[str]]:
    """Read the files (and --seg-scores); return the test set with each system's path."""
    testset = with_seg_scores(read_testset(args), args)
    paths = list(args.hyp) if len(args.hyp) == len(testset.systems) else list(testset.systems)
    return testset, paths


def cli_settings(args: argparse.Namespace, config: BleuConfig) -> Settings:
    """The settings ``--tokenize``, ``--lowercase``, BLEU's options and ``--jobs`` describe.

    Raises:
        ConfigError: ``--jobs`` or ``$BLEUVIZ_JOBS`` is not a whole number of at least 1.
    """
    # The metrics' modules load where a command scores (``rouge``, ``add`` and ``list`` do not).
    from bleuviz.metrics.spec import MetricOptions, Settings

    lowercase = bool(args.lowercase)
    return Settings(
        bleu=config,
        tokenize=TokenizeConfig(args.tokenize, lowercase),
        options=MetricOptions(lowercase=lowercase),
        workers=job_count(args.jobs, os.environ),
    )


def cli_evaluation(testset: TestSet, args: argparse.Namespace, config: BleuConfig) -> Evaluation:
    """The test set under the command line's settings."""
    from bleuviz.metrics.evaluation import Evaluation

    return Evaluation(testset, cli_settings(args, config))


#: What ``--hyp -`` reads, and the system's name.
STDIN = "-"
STDIN_NAME = "stdin"


def read_testset(args: argparse.Namespace) -> TestSet:
    """Read the files (and standard input for ``--hyp -``, as ``cat hyp | sacrebleu ref``).

    With ``--set ID``, read that saved test set from the workspace instead.

    Raises:
        InputError: a file is refused, or ``-`` is given more than once.
        WorkspaceError: the workspace cannot be read, or has no test set ``ID``.
    """
    if args.set is not None:
        return read_saved(args)
    if not args.hyp:
        raise InputError("--hyp: give the system outputs, or --set ID for a saved test set")
    if args.hyp.count(STDIN) > 1:
        raise InputError("--hyp: standard input (-) can be read only once")
    if STDIN not in args.hyp:
        return load_paths(args.hyp, args.ref, args.src, args.docids, args.max_bytes)
    hyps = [
        read_stdin(args.max_bytes) if path == STDIN else read_path(path, args.max_bytes)
        for path in args.hyp
    ]
    refs = [read_path(path, args.max_bytes) for path in args.ref]
    source = None if args.src is None else read_path(args.src, args.max_bytes)
    docids = None if args.docids is None else read_path(args.docids, args.max_bytes)
    return load_files(hyps, refs, source, docids, args.max_bytes)


def read_saved(args: argparse.Namespace) -> TestSet:
    """Read test set ``--set`` from ``--workspace``; files naming the test set are refused.

    Raises:
        InputError: --ref/--hyp/--src/--docids given with --set.
        WorkspaceError: the workspace cannot be read, or has no such test set.
    """
    given = [opt for opt in ("ref", "hyp", "src", "docids") if getattr(args, opt)]
    if given:
        raise InputError(f"--set: --{given[0]} cannot be given with a saved test set")
    return saved_workspace(args.workspace).load(args.set)


def saved_workspace(folder: str | None) -> Workspace:
    """Open the workspace in ``folder`` for a command that needs one saved there.

    Opening creates a missing workspace (and the folders above it), which a
    mistyped ``--workspace`` must not do when the command only reads from it.

    Raises:
        InputError: ``folder`` holds no workspace.
    """
    from bleuviz.workspace.location import resolve_folder
    from bleuviz.workspace.schema import DB_NAME
    from bleuviz.workspace.store import Workspace  # sqlite3, for these commands only

    path = resolve_folder(folder)
    if not (path / DB_NAME).is_file():
        raise InputError(f"--workspace: no workspace in {path} (nothing was saved there)")
    return Workspace.open(path)


def read_stdin(max_bytes: int) -> NamedBytes:
    """Read standard input as one hypothesis file named ``stdin`` (size-checked like a file).

    Raises:
        InputError: standard input is closed (``<&-``: Python then has no ``sys.stdin``)
            or a terminal (nothing was piped in, and reading would wait for typing).
    """
    stream = sys.stdin
    if stream is None or getattr(stream, "closed", False):
        raise InputError("--hyp -: standard input is closed; pipe the system output into it")
    if stream.isatty():
        raise InputError(
            "--hyp -: standard input is a terminal; pipe the system output into it "
            "(cat hyp.txt | bleuviz score ...) or give its file"
        )
    try:
        data = read_at_most(stream.buffer, max_bytes)
    except OSError as e:  # a descriptor closed under Python's sys.stdin (EBADF)
        raise InputError(f"--hyp -: cannot read standard input: {e.strerror}") from None
    f = NamedBytes(STDIN_NAME, data)
    check_size_and_emptiness(f, max_bytes)
    return f


def with_seg_scores(testset: TestSet, args: argparse.Namespace) -> TestSet:
    """Add the --seg-scores and --mqm files to ``testset``; set the directions the user gave.

    An --mqm file adds its error spans and their segment score (MQM under
    ``--mqm-weights``, ESA's, the metric's), named like them.

    A file scoring systems not loaded (WMT's score the human references too) adds
    those it can and says on stderr which it skipped; a file repeating scores
    already read adds nothing.

    Raises:
        InputError: a file is refused, scores no system loaded, repeats a name with
            other values, or a direction names no imported metric.
        ConfigError: an imported metric is named like one bleuviz computes, or
            --mqm-weights is malformed or lacks a severity the files use.
    """
    files = [read_path(path, args.max_bytes) for path in args.seg_scores]
    testset = attach_seg_scores(testset, files, args.max_bytes)
    weights = parse_weights(args.mqm_weights or DEFAULT_WEIGHTS_SPEC)
    if args.mqm_weights is not None:  # a saved set's spans are weighed anew too
        testset = rescore(testset, weights)
    if args.mqm:
        spans = [read_path(path, args.max_bytes) for path in args.mqm]
        testset = attach_error_spans(testset, spans, args.max_bytes, weights)
    testset = set_directions(testset, args.lower_is_better, args.higher_is_better)
    imported_specs(testset)  # refuses a name bleuviz computes itself
    for scores in testset.seg_scores:
        if scores.skipped:
            print(f"bleuviz: note: {skipped_note(scores)}", file=sys.stderr)
    noted = {(s.name, s.origin) for s in testset.seg_scores if s.skipped}
    for spans_file in testset.error_spans:  # those whose score did not say it already
        if spans_file.skipped and (spans_file.name, spans_file.origin) not in noted:
            print(f"bleuviz: note: {skipped_spans_note(spans_file)}", file=sys.stderr)
        if spans_file.language_pairs:  # a wrong pair may fit too: say which was read
            print(f"bleuviz: note: {pair_note(spans_file)}", file=sys.stderr)
    return testset


def skipped_note(scores: SegmentScores) -> str:
    """One line naming the systems a score file has that the test set does not."""
    shown = ", ".join(scores.skipped[:10])
    more = f", … ({len(scores.skipped) - 10} more)" if len(scores.skipped) > 10 else ""
    n = len(scores.skipped)
    return (
        f"{scores.origin}: {scores.name!r} scores {n} system{'s' if n != 1 else ''} "
        f"not loaded, skipped: {shown}{more}"
    )


def skipped_spans_note(annotations: ErrorAnnotations) -> str:
    """One line naming the systems an error-span file has that the test set does not."""
    shown = ", ".join(annotations.skipped[:10])
    more = f", … ({len(annotations.skipped) - 10} more)" if len(annotations.skipped) > 10 else ""
    n = len(annotations.skipped)
    return (
        f"{annotations.origin}: {annotations.name!r} annotates {n} "
        f"system{'s' if n != 1 else ''} not loaded, skipped: {shown}{more}"
    )
