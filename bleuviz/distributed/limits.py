"""The Dask backend's thresholds, in one place (as :mod:`bleuviz.limits` holds the core's)."""

from __future__ import annotations

#: Up to this many segments, paired bootstrap and approximate randomization gather
#: every segment's statistics (an n x k int64 matrix on the client) and draw exactly
#: sacrebleu's random stream; above it, a Poisson bootstrap keyed by (seed, segment
#: number) runs on the workers (``bs:poisson``, not sacrebleu-identical).
EXACT_RESAMPLING_SEGMENTS = 10_000_000

#: Segments per partition unless ``--partition-rows`` says otherwise: about 50 MB of
#: text and a few seconds of BLEU per task, small next to the scheduler's few
#: milliseconds per task and next to a worker's memory.
DEFAULT_PARTITION_ROWS = 250_000

#: Seconds to wait for a scheduler that does not answer (the issue asks for one line
#: within 30 s).
CONNECT_TIMEOUT = 20

#: Bytes read at a time when the client counts a file's lines.
SCAN_BLOCK = 1 << 24

#: Seconds a run waits while the scheduler has no worker (all gone, or none started)
#: before it gives up with one line; the wait is reported as it goes.
NO_WORKER_TIMEOUT = 60

#: Seconds between looks at the cluster while no partition finishes.
POLL = 1.0
