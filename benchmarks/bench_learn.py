"""A class on one server: 30 sessions open one lesson link at once, against a one-line page.

Starts two servers the way the README starts bleuviz (``streamlit run serve.py``,
an ``st.App``): bleuviz itself, and a one-line page (``st.write``) served the
same way from a temporary folder. Each is warmed up by one session, then
``--sessions`` browser contexts (Debian's chromium via Playwright) open the page
at once: bleuviz's ``/learn?lesson=...`` (a three-item lesson), the one-line
page's ``/``. For each it prints:

- wall time from the first navigation until every session shows the whole page
  (Learn: the lesson's first item in the text box and the last section's metric);
- the server's CPU time (user + system, from ``/proc/PID/stat``, its children
  included) over the same span, per session;
- the ratio Learn / one-line page for both, against the issue's target of 1.5.

The browser runs on the same machine and competes for its cores: the wall
times include that, and both pages pay it alike; the CPU figures are the
server's alone. On a shared machine, run it more than once.

Usage::

    PYTHONPATH=$PWD python benchmarks/bench_learn.py [--sessions 30]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

from bleuviz.teach.examples import EXAMPLE_BY_KEY
from bleuviz.teach.lesson import Lesson, encode_lesson
from tests.serving import free_port, serving

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
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        script,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
    ]
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


def learn_done(page: Page) -> None:
    """The lesson's first item is in the text box and the page's last section is drawn."""
    expect(page.get_by_label("Candidate (the system's translation)")).to_have_value(
        LESSON.items[0].hypothesis, timeout=TIMEOUT_MS
    )
    expect(page.get_by_text("Corpus BLEU (summed counts)")).to_be_visible(timeout=TIMEOUT_MS)


def one_line_done(page: Page) -> None:
    expect(page.get_by_text("One line.")).to_be_visible(timeout=TIMEOUT_MS)


def measure(
    browser: Browser, url: str, pid: int, sessions: int, done: Callable[[Page], None]
) -> tuple[float, float]:
    """Warm up with one session, then open ``sessions`` at once: (wall s, server CPU s/session)."""
    _, warm = open_all(browser, url, 1, done)
    for page in warm:
        page.context.close()
    time.sleep(1.0)
    cpu = server_cpu(pid)
    wall, pages = open_all(browser, url, sessions, done)
    time.sleep(1.0)  # let the last runs finish their bookkeeping
    used = server_cpu(pid) - cpu
    for page in pages:
        page.context.close()
    return wall, used / sessions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=30)
    args = parser.parse_args()
    link = f"/learn?lesson={encode_lesson(LESSON)}"
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        folder = Path(tmp)
        (folder / "one_line.py").write_text(ONE_LINE)
        (folder / "serve_one.py").write_text(ONE_LINE_APP)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        with streamlit(ROOT, "serve.py", folder / "learn.log") as (url, pid):
            learn = measure(browser, url + link, pid, args.sessions, learn_done)
        with streamlit(folder, "serve_one.py", folder / "one.log") as (url, pid):
            one = measure(browser, url + "/", pid, args.sessions, one_line_done)
        browser.close()
    print(f"{args.sessions} sessions at once (cores: {os.cpu_count()}, shared machine)")
    print(f"Learn lesson link: wall {learn[0]:.2f} s, server CPU {learn[1] * 1000:.0f} ms/session")
    print(f"one-line page:     wall {one[0]:.2f} s, server CPU {one[1] * 1000:.0f} ms/session")
    for what, i in (("wall", 0), ("server CPU per session", 1)):
        ratio = learn[i] / one[i] if one[i] else float("inf")
        verdict = "meets" if ratio <= TARGET else "misses"
        print(f"ratio Learn / one-line, {what}: {ratio:.2f}x ({verdict} the target {TARGET}x)")


if __name__ == "__main__":
    main()
