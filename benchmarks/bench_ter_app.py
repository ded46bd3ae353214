"""Time TER in the app against ``bleuviz score -m ter`` on the same files, in one run.

Writes the first ``--segments`` lines (default 529) of the reference and of the
first ``--systems`` systems (default 13) of WMT17 en-de (under
/work/shared/data) to a temporary folder, then, ``--repeats`` times each:

- the command: ``python -m bleuviz score -r REF -i HYP... -m ter``, wall time of
  the whole process (imports, reading, BLEU and TER), as a user times it;
- the app: a cold ``streamlit run serve.py -- --ref REF --hyp HYP...`` (cold, so
  that neither the bundle nor TER's in-memory cache holds the scores), a
  Chromium page on the Overview; once every system's BLEU card is shown, TER is
  chosen in the sidebar's "Add columns" (after ``--pause`` seconds, a user
  reading the page: the app prepares TER's worker processes meanwhile) and the
  clock runs from the Enter key until the systems table has a TER column and
  the script run has ended.

Prints the medians with their ranges and the app/command ratio (the target is
at most 1.5, issue 33 item 5). ``--metric chrF`` times a metric that takes no
time to score, so the app's own cost of adding a column (a rerun of the page,
drawn again) shows.

Usage::

    python benchmarks/bench_ter_app.py [--segments 529] [--systems 13] [--repeats 3]
                                       [--pause 3] [--metric TER] [--data DIR] [--keep DIR]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_app  # a sibling script, not a package
from bench_app import (
    CHROMIUM,
    CHROMIUM_ARGS,
    IDLE,
    METRICS_FRESH,
    POLL_MS,
    REAL_DATA,
    ROOT,
    compile_bytecode,
    new_page,
    serve,
)

TARGET = 1.5
#: Ports this benchmark's servers may use (shared machine: a range of its own).
PORTS = range(8650, 8700)


def free_port_in_range() -> int:
    """Return a port of ``PORTS`` that is free right now."""
    for port in PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


#: The systems table has a TER column (its header cell), the page is idle.
COLUMN_SHOWN = """(label) => {
  const heads = [...document.querySelectorAll('[data-testid="stTable"] th')]
    .map(th => th.textContent.trim());
  const idle = document.querySelector(
    '[data-testid="stApp"][data-test-script-state="notRunning"]');
  return heads.some(h => h.startsWith(label)) && idle ? performance.now() : false;
}"""


def write_files(folder: Path, data: Path, systems: int, segments: int) -> tuple[Path, list[Path]]:
    """Copy the first ``segments`` lines of the reference and of ``systems`` outputs."""
    hyps = sorted(data.glob("hyp.*"))[:systems]
    if len(hyps) < systems:
        raise SystemExit(f"{data}: {len(hyps)} systems, {systems} asked for")
    out = []
    for path in [data / "ref.de.txt", *hyps]:
        lines = path.read_text(encoding="utf-8").splitlines()[:segments]
        target = folder / path.name
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(target)
    return out[0], out[1:]


def time_command(ref: Path, hyps: list[Path], metric: str) -> float:
    """Seconds of ``bleuviz score -m METRIC`` on the files, the whole process."""
    command = [sys.executable, "-m", "bleuviz", "score", "-r", str(ref), "-i"]
    command += [str(h) for h in hyps] + ["-m", metric.lower()]
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def time_app(
    browser: object, ref: Path, hyps: list[Path], log: Path, pause: float, metric: str
) -> float:
    """Seconds from choosing ``metric`` until the table's column shows, on a cold server."""
    with serve(["--ref", str(ref), "--hyp", *map(str, hyps)], log) as url:
        page = new_page(browser)  # type: ignore[arg-type]
        page.goto(url, wait_until="commit")
        page.wait_for_function(METRICS_FRESH, arg=[len(hyps), ""], polling=POLL_MS)
        page.wait_for_selector(IDLE)
        page.wait_for_timeout(pause * 1000)
        box = page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').first
        box.click()
        page.keyboard.type(metric)
        start = float(page.evaluate("performance.now()"))
        page.keyboard.press("Enter")
        page.wait_for_timeout(50)  # the rerun starts before the idle state is read
        done = page.wait_for_function(COLUMN_SHOWN, arg=metric, polling=POLL_MS)
        seconds = (float(done.json_value()) - start) / 1000
        page.context.close()
        return seconds


def summary(name: str, values: list[float]) -> str:
    """'name: median s (min-max, n runs)'."""
    low, high = min(values), max(values)
    median = statistics.median(values)
    return f"{name}: median {median:.2f} s ({low:.2f}-{high:.2f}, {len(values)} runs)"


def main() -> None:
    """Parse the options, run both measurements in turns, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=529)
    parser.add_argument("--systems", type=int, default=13)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds before choosing TER")
    parser.add_argument(
        "--metric", default="TER", help="another metric for comparison (chrF: the page's own cost)"
    )
    parser.add_argument("--data", type=Path, default=REAL_DATA)
    parser.add_argument("--keep", type=Path, help="write the files and logs here")
    args = parser.parse_args()
    bench_app.free_port = free_port_in_range
    compile_bytecode()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-ter-"))
    folder.mkdir(parents=True, exist_ok=True)
    ref, hyps = write_files(folder, args.data, args.systems, args.segments)
    print(f"{args.systems} systems x {args.segments} segments of {args.data} in {folder}")
    print(f"{args.metric} chosen {args.pause:g} s after the Overview is drawn")
    command, app = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for k in range(args.repeats):  # in turns, so both see the same load
            command.append(time_command(ref, hyps, args.metric))
            log = folder / f"server{k}.log"
            app.append(time_app(browser, ref, hyps, log, args.pause, args.metric))
            print(f"run {k + 1}: command {command[-1]:.2f} s, app {app[-1]:.2f} s", flush=True)
        browser.close()
    print(summary(f"bleuviz score -m {args.metric.lower()} (whole command)", command))
    print(summary(f"app: choose {args.metric} -> its column shown", app))
    ratio = statistics.median(app) / statistics.median(command)
    print(f"app / command: {ratio:.2f} (target <= {TARGET})")


if __name__ == "__main__":
    main()
