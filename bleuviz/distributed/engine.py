"""Where the partitions run: Dask's synchronous scheduler, a local cluster, or a scheduler.

``--dask local[:WORKERS]`` starts a ``LocalCluster`` of worker processes (one
thread each: the statistics are Python and numpy work that holds the GIL);
``--dask tcp://HOST:PORT`` joins a running scheduler (one started by
``dask scheduler``, dask-jobqueue on SLURM, or the Dask Kubernetes operator);
``sync`` runs every task in this process with Dask's synchronous scheduler
(tests and debugging). A task a dead worker held is run again by Dask on
another worker; the tasks are pure, so the result is the same.

Every fault ends the run with one ``InputError`` (one line on the command line),
after a bounded wait: a task whose workers died more often than Dask allows
(``KilledWorker``), a scheduler lost mid-run (its futures cancelled), a
scheduler without any worker for ``NO_WORKER_TIMEOUT`` seconds (the wait is
reported as progress). The workers' and the scheduler's own logs are silenced,
so that their account of the same fault (a traceback) does not come first.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bleuviz.distributed.limits import CONNECT_TIMEOUT, NO_WORKER_TIMEOUT, POLL
from bleuviz.errors import ConfigError, InputError
from bleuviz.progress import Progress

T = TypeVar("T")

_TRIM = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
_LOCAL = re.compile(r"local(?::(?P<workers>[0-9]+))?")
_REMOTE = re.compile(r"(?:tcp|tls|ucx|ws|wss)://\S+")


@dataclass(slots=True)
class Engine:
    """A Dask client (or the synchronous scheduler) that runs tasks and says how far it is.

    Attributes:
        address: what ``--dask`` said.
        description: one line naming the engine, for the report.
        dashboard: the Dask dashboard's address, if it has one.
    """

    address: str
    description: str
    dashboard: str | None = None
    _client: Any = field(default=None, repr=False)
    _cluster: Any = field(default=None, repr=False)
    owned: bool = True

    def map(
        self,
        func: Callable[..., T],
        items: Sequence[Any],
        *args: Any,
        progress: Progress | None = None,
    ) -> list[T]:
        """Run ``func(item, *args)`` for every item; return the results in item order.

        ``progress`` hears "partition 3 of 40 done" (and the fraction) as each one
        finishes, and how long it has waited while the scheduler has no worker.

        Raises:
            InputError: a task's own (a reader's refusal); a worker that cannot
                import what the task needs (bleuviz not installed there); workers
                that die running a task (killed, out of memory); a scheduler that
                goes away, or has had no worker for ``NO_WORKER_TIMEOUT`` seconds.
        """
        try:
            return self._map(func, items, args, progress)
        except ImportError as e:
            raise InputError(
                f"--dask: a worker cannot import {e.name or 'a module'}; install "
                f"'bleuviz[dask]' at this version on every worker"
            ) from None

    def _map(
        self,
        func: Callable[..., T],
        items: Sequence[Any],
        args: tuple[Any, ...],
        progress: Progress | None,
    ) -> list[T]:
        """``map``'s work, on the synchronous scheduler or the client."""
        if self._client is None:
            from dask.base import compute
            from dask.delayed import delayed

            tasks = [delayed(func, pure=True)(item, *args) for item in items]
            results: list[T] = []
            for i, task in enumerate(tasks):  # one at a time: the ticker sees each finish
                results.append(compute(task, scheduler="synchronous")[0])  # type: ignore[no-untyped-call]
                _report(progress, i + 1, len(tasks))
            return results
        from distributed import KilledWorker

        futures = self._client.map(func, items, *[[a] * len(items) for a in args], pure=False)
        try:
            self._watch(futures, progress)
            gathered: list[T] = self._client.gather(futures)
        except KilledWorker as e:
            deaths = e.allowed_failures + 1
            raise InputError(
                f"--dask: a partition's worker died {deaths} time{'s' if deaths != 1 else ''} "
                "(killed, or out of memory); give the workers more memory or use a smaller "
                "--partition-rows"
            ) from None
        except (CancelledError, OSError, TimeoutError) as e:  # the scheduler is gone
            raise InputError(
                f"--dask: lost the Dask scheduler at {self.address} mid-run ({type(e).__name__})"
            ) from None
        return gathered

    def _watch(self, futures: list[Any], progress: Progress | None) -> None:
        """Wait for every future, reporting each finished one; raise the first task error.

        While none finishes, look at the cluster every ``POLL`` seconds: without a
        worker for ``NO_WORKER_TIMEOUT`` seconds, give up.
        """
        from distributed import wait

        pending, done, idle_since = set(futures), 0, None
        while pending:
            try:
                finished, pending = wait(  # type: ignore[no-untyped-call]
                    pending, timeout=POLL, return_when="FIRST_COMPLETED"
                )
            except TimeoutError:
                finished = set()
            for future in finished:
                if future.status != "finished":
                    # The task's own error (a reader's InputError), or a cancellation: the
                    # scheduler went away (FutureCancelledError, handled by _map).
                    future.result()
                done += 1
                _report(progress, done, len(futures))
            if finished or self._client.nthreads():
                idle_since = None
                continue
            idle_since = idle_since or time.monotonic()
            waited = time.monotonic() - idle_since
            if waited >= NO_WORKER_TIMEOUT:
                raise InputError(
                    f"--dask: the scheduler at {self.address} has had no worker for "
                    f"{NO_WORKER_TIMEOUT} s ({done:,} of {len(futures):,} partitions done); "
                    "start workers (dask worker ADDRESS) and run again"
                )
            if progress is not None:
                progress(
                    f"no worker; waiting {waited:.0f} of {NO_WORKER_TIMEOUT} s",
                    done / len(futures),
                )

    def close(self) -> None:
        """Stop the local cluster this engine started (a remote scheduler is left running)."""
        if self._client is not None and self.owned:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _report(progress: Progress | None, done: int, total: int) -> None:
    """Tell ``progress`` how many partitions are done."""
    if progress is not None:
        progress(f"partition {done:,} of {total:,} done", done / total)


def connect(address: str) -> Engine:
    """Start or join the engine ``--dask`` names.

    Raises:
        ConfigError: not ``sync``, ``local``, ``local:N`` or a scheduler URL.
        InputError: the scheduler does not answer within ``CONNECT_TIMEOUT`` seconds.
    """
    if address == "sync":
        return Engine(address, "dask (synchronous scheduler, this process)")
    local = _LOCAL.fullmatch(address)
    if local is not None:
        return _local(address, int(local["workers"] or (os.cpu_count() or 1)))
    if _REMOTE.fullmatch(address):
        return _remote(address)
    raise ConfigError(
        f"--dask: {address!r} is not local, local:WORKERS or a scheduler address (tcp://HOST:PORT)"
    )


def attach(client: Any) -> Engine:
    """An engine on a Dask ``Client`` the caller made (and closes): a notebook's, a test's."""
    n = len(client.scheduler_info().get("workers", {}))
    engine = Engine(str(client.scheduler.address), f"dask client ({n} workers)", None, client)
    engine.owned = False
    return engine


def _local(address: str, workers: int) -> Engine:
    """A LocalCluster of ``workers`` processes, one thread each, its dashboard on a free port."""
    if workers < 1:
        raise ConfigError(f"--dask: {address}: at least one worker")
    import dask
    from distributed import Client, LocalCluster

    # Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which makes glibc
    # give memory back after every large numpy temporary: BLEU's counting then takes 37%
    # more CPU (1M segments: 21.8 s instead of 15.8 s). glibc's own threshold is kept.
    with dask.config.set({_TRIM: None}):
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            # Every failure becomes one line on stderr (a reader's refusal, a dead worker):
            # the workers' own log of it ("Compute Failed", a traceback) would come first.
            silence_logs=logging.CRITICAL,
        )
    client = Client(cluster)  # type: ignore[no-untyped-call]
    plural = "s" if workers != 1 else ""
    return Engine(
        address,
        f"dask {address} ({workers} worker process{'es' if plural else ''})",
        _dashboard(client),
        client,
        cluster,
    )


def _remote(address: str) -> Engine:
    """Join a running scheduler; one line within ``CONNECT_TIMEOUT`` seconds if it is silent."""
    from distributed import Client

    _silence_client_logs()
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as e:
        raise InputError(
            f"--dask: no Dask scheduler answered at {address} within {CONNECT_TIMEOUT} s "
            f"({type(e).__name__})"
        ) from None
    except Exception as e:  # something answered, but not as a Dask scheduler speaks
        raise InputError(
            f"--dask: {address} did not answer as a Dask scheduler ({type(e).__name__})"
        ) from None
    n = len(client.scheduler_info().get("workers", {}))
    return Engine(address, f"dask {address} ({n} workers)", _dashboard(client), client)


def _silence_client_logs() -> None:
    """Silence ``distributed`` and each of its loggers Dask's config gave a level of its own.

    Dask's default config sets ``distributed.client`` (and ``distributed.gc``) apart
    from ``distributed``: a scheduler lost mid-run logged the client's reconnect
    traceback at ERROR before the one line.
    """
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def _dashboard(client: Any) -> str | None:
    """The dashboard's address, when the scheduler serves one (bokeh installed)."""
    services = client.scheduler_info().get("services", {})
    if "dashboard" not in services:
        return None
    link: str = client.dashboard_link
    return link
