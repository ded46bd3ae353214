"""Many users at once: N browser sessions open the same deep link to one segment.

Saves a real test set (default: the first 9 systems of WMT17 en-de newstest2017 and
its reference, in ``/work/shared/data``) in a new workspace, starts ``streamlit run
app.py -- --workspace DIR`` on it (``--from-files``: on the command-line files
instead), then opens N fresh chromium contexts (default 16) at the
same moment on the same deep link and waits until each one shows that segment:
its heading names the segment and the highlighted hypothesis is that system's line.

``--floor`` adds a round on a page that holds only the heading and the line
(``bench_app.FLOOR_SCRIPT``): the same load then measures what Streamlit's frontend and
chromium cost on this machine without bleuviz, the least any page can take, and
each round's median is printed over the floor's (issue 35's target: at most 1.5x).

Printed: the slowest, median and fastest session (seconds from the moment all
were started, browser included), then the server's memory after the load
(VmRSS and VmHWM summed over the streamlit process and its children, from /proc).
Two rounds by default: "cold" is the server's first sessions after start-up
(every statistic is computed while they wait); "warm" is a second round of new
sessions on the same server (shared caches hit).

The link is ``PREFIX`` + ``sys=NAME&seg=N``; ``PREFIX`` defaults to
``/sentences?set=ID&`` for the saved set (``/sentences?`` with ``--from-files``).

Usage::

    python -m benchmarks.bench_load [--sessions 16] [--data DIR] [--systems 9]
                                    [--system NAME] [--seg 1000] [--prefix LINK]
                                    [--from-files] [--floor] [--rounds cold warm]
                                    [--app-args ...]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from playwright.async_api import Browser, async_playwright

from benchmarks.bench_app import (
    CHROMIUM,
    CHROMIUM_ARGS,
    FLOOR_SCRIPT,
    POLL_MS,
    REAL_DATA,
    SEGMENT_SHOWN,
    real_files,
    serve,
    system_name,
)
from bleuviz.io.load import load_paths
from bleuviz.workspace import Workspace

LOAD_TARGET = 10.0
#: Issue 35: the deep link's median under the load is at most this many times the floor's.
FLOOR_RATIO_TARGET = 1.5
#: Each user has their own browser with the page in front: chromium must not throttle the
#: timers and animation frames of the pages that are not in front, as it does for tabs.
FOREGROUND_ARGS = [
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
TIMEOUT_MS = 300_000


def deep_link(url: str, prefix: str, system: str, seg: int) -> str:
    """The link every session opens: the server's URL, ``prefix``, then system and segment."""
    return f"{url}{prefix}{urlencode({'sys': system, 'seg': str(seg)})}"


async def one_session(browser: Browser, link: str, seg: int, text: str, start: float) -> float:
    """Open ``link`` in a fresh context; seconds from ``start`` until the segment shows."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        await page.goto(link, wait_until="commit")
        await page.wait_for_function(SEGMENT_SHOWN, arg=[seg, text], polling=POLL_MS)
        return time.monotonic() - start
    finally:
        await context.close()


async def load_round(browser: Browser, link: str, n: int, seg: int, text: str) -> list[float]:
    """Start ``n`` sessions at once on ``link``; each one's seconds until it showed the segment."""
    start = time.monotonic()
    sessions = [one_session(browser, link, seg, text, start) for _ in range(n)]
    return sorted(await asyncio.gather(*sessions))


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it (by each process's parent id in /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        tree += frontier
    return tree


def memory_mib(root: int) -> tuple[float, float]:
    """VmRSS and VmHWM (peak) in MiB, summed over ``root``'s process tree."""
    totals = {"VmRSS": 0, "VmHWM": 0}
    for pid in process_tree(root):
        try:
            lines = Path(f"/proc/{pid}/status").read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            field, _, value = line.partition(":")
            if field in totals:
                totals[field] += int(value.split()[0])  # kB
    return totals["VmRSS"] / 1024, totals["VmHWM"] / 1024


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of ``pids`` so far (a process that ended counts no more)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def cpu_split(server: int) -> tuple[float, float]:
    """CPU seconds so far of the server's tree, and of the rest of this process's tree."""
    served = process_tree(server)
    mine = [pid for pid in process_tree(os.getpid()) if pid not in served]
    return cpu_seconds(served), cpu_seconds(mine)


def report(tag: str, times: list[float]) -> None:
    """Print the slowest, median and fastest session of a round."""
    slowest = times[-1]
    verdict = "ok" if slowest <= LOAD_TARGET else "OVER TARGET"
    print(
        f"{tag}: slowest {slowest:6.2f} s (target <= {LOAD_TARGET:g} s: {verdict}) · "
        f"median {statistics.median(times):6.2f} s · fastest {times[0]:6.2f} s",
        flush=True,
    )


async def run(args: argparse.Namespace) -> None:
    """Start the server, run each round, print the figures and the server's memory."""
    ref, hyps = real_files(args.data, args.systems, 0, Path())  # every segment: no copy
    system = args.system or system_name(hyps[min(2, len(hyps) - 1)])
    by_name = {system_name(h): h for h in hyps}
    if system not in by_name:
        sys.exit(f"--system {system}: not among {', '.join(by_name)}")
    lines = by_name[system].read_text(encoding="utf-8").splitlines()
    if not 1 <= args.seg <= len(lines):
        sys.exit(f"--seg {args.seg}: the test set has {len(lines)} segments")
    folder = Path(tempfile.mkdtemp(prefix="bleuviz-load-"))
    log = folder / "server.log"
    files = ["--ref", str(ref), "--hyp", *map(str, hyps)]
    if args.from_files:
        app_args, prefix = args.app_args or files, args.prefix or "/sentences?"
    else:
        saved = Workspace.open(folder / "workspace").save_testset(
            load_paths([str(h) for h in hyps], [str(ref)]), "load test"
        )
        app_args = args.app_args or ["--workspace", str(folder / "workspace")]
        prefix = args.prefix or f"/sentences?set={saved.id}&"
    tag = f"[{len(lines):,} x {len(hyps)} · {args.sessions} sessions]"
    with serve(app_args, log, on_start=lambda pid: setattr(args, "server_pid", pid)) as url:
        link = deep_link(url, prefix, system, args.seg)
        print(f"{tag} link: {link.removeprefix(url)}", flush=True)
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS + FOREGROUND_ARGS
            )
            medians: dict[str, float] = {}
            for name in args.rounds:
                before = cpu_split(args.server_pid)
                times = await load_round(
                    browser, link, args.sessions, args.seg, lines[args.seg - 1]
                )
                after = cpu_split(args.server_pid)
                report(f"{tag} {name}", times)
                medians[name] = statistics.median(times)
                print(
                    f"{tag} {name}: CPU seconds of the server {after[0] - before[0]:.1f}, "
                    f"of the browser and this script {after[1] - before[1]:.1f}",
                    flush=True,
                )
            await browser.close()
        rss, hwm = memory_mib(args.server_pid)
        print(f"{tag} server memory after the load: VmRSS {rss:,.0f} MiB · VmHWM {hwm:,.0f} MiB")
    if args.floor:
        floor = await floor_round(args, by_name[system], folder, tag)
        for name, median in medians.items():
            ratio = median / floor
            verdict = "ok" if ratio <= FLOOR_RATIO_TARGET else "OVER TARGET"
            print(
                f"{tag} {name} / floor (medians): {ratio:.2f}x "
                f"(target <= {FLOOR_RATIO_TARGET:g}x: {verdict})",
                flush=True,
            )


async def floor_round(args: argparse.Namespace, hyp: Path, folder: Path, tag: str) -> float:
    """Run the same load on ``FLOOR_SCRIPT`` (Streamlit and chromium alone); return its median."""
    script = folder / "floor.py"
    script.write_text(FLOOR_SCRIPT, encoding="utf-8")
    lines = hyp.read_text(encoding="utf-8").splitlines()
    with serve([str(hyp)], folder / "floor.log", script=str(script)) as url:
        link = f"{url}/?{urlencode({'seg': str(args.seg)})}"
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS + FOREGROUND_ARGS
            )
            times = await load_round(browser, link, args.sessions, args.seg, lines[args.seg - 1])
            report(f"{tag} floor (a page with only the heading and the line)", times)
            await browser.close()
    return statistics.median(times)


def main() -> None:
    """Parse the options and run the load test."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=16)
    parser.add_argument("--data", type=Path, default=REAL_DATA, help="ref.* and hyp.* files")
    parser.add_argument("--systems", type=int, default=9)
    parser.add_argument("--system", help="the system the link opens (default: the third)")
    parser.add_argument("--seg", type=int, default=1000, help="the segment, from 1")
    parser.add_argument("--prefix", help="the link before sys=&seg= (default: see above)")
    parser.add_argument(
        "--from-files", action="store_true", help="serve the files, not a saved test set"
    )
    parser.add_argument(
        "--floor", action="store_true", help="also load a page with only the segment on it"
    )
    parser.add_argument(
        "--rounds", nargs="+", default=["cold", "warm"], help="names of the rounds to run"
    )
    parser.add_argument(
        "--app-args", nargs=argparse.REMAINDER, help="the app's arguments (default: the files)"
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: install Debian's chromium")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
