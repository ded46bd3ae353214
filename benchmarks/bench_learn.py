"""A class on one server: 30 sessions open one lesson link at once, against a one-line page.

Starts two servers the way the README starts bleuviz (``streamlit run serve.py``,
an ``st.App``): bleuviz itself, and a one-line page (``st.write``) served the
same way from a temporary folder. Each is warmed up by one session, then
``--sessions`` browser contexts (Debian's chromium via Playwright) open the page
at once: bleuviz's ``/learn?lesson=...`` (a three-item lesson), the one-line
page's ``/``. For each it prints:

- the server's CPU time (user + system, from ``/proc/PID/stat``, its children
  included) per session: what a class shares, and what the issue's target of
  1.5× the one-line page's is held to;
- the wall time from the first navigation until every session shows the page
  (Learn: the lesson's first item in the text box and the last section of the
  part on show, BLEU step by step; the other parts are tabs drawn when chosen);
- each browser's own drawing (its renderer's main-thread time, from Chrome
  DevTools' ``Performance.getMetrics``) per session.

Here the 30 browsers run on the server's machine and take most of its cores:
the wall time measures them more than the server (each Learn session draws
about four times the one-line page's work), which in a class runs on each
student's own machine. The server's CPU per session is the class's shared
cost. The rounds alternate the two pages on servers started once, and each
figure is a median with its range.

Usage::

    PYTHONPATH=$PWD python benchmarks/bench_learn.py [--sessions 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

from bleuviz.teach.examples import EXAMPLE_BY_KEY
from bleuviz.teach.lesson import Lesson, encode_lesson
from tests.serving import free_port, serving, streamlit_command

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
TARGET = 1.5
TIMEOUT_MS = 180_000
LESSON = Lesson(
    "A class on one server",
    tuple(EXAMPLE_BY_KEY[key] for key in ("clipping", "brevity", "smoothing")),
)
ONE_LINE = 'import streamlit as st\n\nst.write("One line.")\n'
ONE_LINE_APP = 'import streamlit as st\n\napp = st.App("one_line.py")\n'


def server_cpu(pid: int) -> float:
    """Seconds of CPU the process and its waited-for children have used (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


@contextmanager
def streamlit(folder: Path, script: str, log: Path) -> Iterator[tuple[str, int]]:
    """Serve ``script`` (an ``st.App`` file) from ``folder``; yield its URL and the server's pid."""
    port = free_port()
    command = streamlit_command(script, port)
    env = {
        **os.environ,
        "BLEUVIZ_WORKSPACE": str(log.with_suffix(".workspace")),
        "PYTHONPATH": str(ROOT),
    }
    before = {p.name for p in Path("/proc").iterdir() if p.name.isdigit()}
    with serving(command, port, folder, env, log) as url:
        pids = [
            int(p.name)
            for p in Path("/proc").iterdir()
            if p.name.isdigit() and p.name not in before and _is_server(p, port)
        ]
        yield url, pids[0]


def _is_server(proc: Path, port: int) -> bool:
    try:
        return str(port) in (proc / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return False


@dataclass(frozen=True)
class Round:
    """One round of ``sessions`` opening a page at once."""

    wall: float  # s, first navigation to every session done
    server_cpu: float  # s per session, the server's user + system time


def open_all(
    browser: Browser, url: str, sessions: int, done: Callable[[Page], None]
) -> tuple[float, list[Page]]:
    """Open ``url`` in ``sessions`` new contexts at once; return the time until all are done."""
    pages = [
        browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        for _ in range(sessions)
    ]
    for page in pages:
        page.set_default_timeout(TIMEOUT_MS)
    start = time.perf_counter()
    for page in pages:
        page.goto(url, wait_until="commit")
    for page in pages:
        done(page)
    return time.perf_counter() - start, pages


def drawing(browser: Browser, url: str, done: Callable[[Page], None]) -> float:
    """One session alone: its renderer's main-thread seconds until the page is drawn.

    Chrome DevTools' ``Performance.getMetrics`` (TaskDuration), one session on
    an otherwise idle machine: the browser's own work for the page.
    """
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    probe = page.context.new_cdp_session(page)
    probe.send("Performance.enable")
    page.goto(url, wait_until="commit")
    done(page)
    page.wait_for_timeout(1000)  # the last frames drawn
    metrics = probe.send("Performance.getMetrics")["metrics"]
    page.context.close()
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def learn_done(page: Page) -> None:
    """The lesson's first item is in the text box and the first part's last section is drawn.

    The first part (BLEU step by step) is what a student opening the link sees;
    the other parts are tabs, computed and drawn when chosen.
    """
    expect(page.get_by_label("Candidate (the system's translation)")).to_have_value(
        LESSON.items[0].hypothesis, timeout=TIMEOUT_MS
    )
    recall = page.get_by_text("Why precision and a brevity penalty, not recall")
    expect(recall).to_be_visible(timeout=TIMEOUT_MS)


def one_line_done(page: Page) -> None:
    expect(page.get_by_text("One line.")).to_be_visible(timeout=TIMEOUT_MS)


def warm_up(browser: Browser, url: str, done: Callable[[Page], None]) -> None:
    """One session first: the server's imports and caches are ready, as in a class."""
    _, pages = open_all(browser, url, 1, done)
    for page in pages:
        page.context.close()


def measure(
    browser: Browser, url: str, pid: int, sessions: int, done: Callable[[Page], None]
) -> Round:
    """Open ``sessions`` at once on a warm server."""
    time.sleep(1.0)
    cpu = server_cpu(pid)
    wall, pages = open_all(browser, url, sessions, done)
    time.sleep(1.0)  # let the last runs finish their bookkeeping
    used = server_cpu(pid) - cpu
    for page in pages:
        page.context.close()
    return Round(wall, used / sessions)


def spread(values: list[float], scale: float, unit: str) -> str:
    """Median and range of ``values`` (times ``scale``), e.g. "346 ms (331–360)"."""
    shown = [v * scale for v in values]
    digits = 0 if min(shown) >= 100 else 2
    low, mid, high = min(shown), statistics.median(shown), max(shown)
    return f"{mid:.{digits}f} {unit} ({low:.{digits}f}–{high:.{digits}f})"


def report(
    sessions: int, learn: list[Round], one: list[Round], drawn: list[tuple[float, float]]
) -> None:
    """Print each figure for both pages, median (range), and their ratio."""
    print(f"{sessions} sessions at once, {len(learn)} alternating rounds (cores: {os.cpu_count()})")
    rows = (
        (
            "server CPU per session",
            [r.server_cpu for r in learn],
            [r.server_cpu for r in one],
            1000,
            "ms",
        ),
        (
            f"wall, {sessions} browsers here too",
            [r.wall for r in learn],
            [r.wall for r in one],
            1,
            "s",
        ),
        ("one browser's drawing", [a for a, _ in drawn], [b for _, b in drawn], 1000, "ms"),
    )
    for what, mine, theirs, scale, unit in rows:
        ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
        print(
            f"{what:30} Learn {spread(mine, scale, unit):22} one-line "
            f"{spread(theirs, scale, unit):22} ratio {spread(ratios, 1, 'x')}"
        )
    ratio = statistics.median(r.server_cpu / o.server_cpu for r, o in zip(learn, one, strict=True))
    verdict = "meets" if ratio <= TARGET else "misses"
    print(
        f"target, server CPU per session <= {TARGET}x the one-line page's: {verdict}, {ratio:.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per page")
    args = parser.parse_args()
    link = f"/learn?lesson={encode_lesson(LESSON)}"
    learn: list[Round] = []
    one: list[Round] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        folder = Path(tmp)
        (folder / "one_line.py").write_text(ONE_LINE)
        (folder / "serve_one.py").write_text(ONE_LINE_APP)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        with (
            streamlit(ROOT, "serve.py", folder / "learn.log") as (learn_url, learn_pid),
            streamlit(folder, "serve_one.py", folder / "one.log") as (one_url, one_pid),
        ):
            learn_at, one_at = learn_url + link, one_url + "/"
            warm_up(browser, learn_at, learn_done)
            warm_up(browser, one_at, one_line_done)
            for number in range(1, args.rounds + 1):
                learn.append(measure(browser, learn_at, learn_pid, args.sessions, learn_done))
                one.append(measure(browser, one_at, one_pid, args.sessions, one_line_done))
                print(f"round {number}: Learn {learn[-1]}, one-line {one[-1]}", file=sys.stderr)
            drawn = [
                (drawing(browser, learn_at, learn_done), drawing(browser, one_at, one_line_done))
                for _ in range(args.rounds)
            ]
        browser.close()
    report(args.sessions, learn, one, drawn)


if __name__ == "__main__":
    main()
