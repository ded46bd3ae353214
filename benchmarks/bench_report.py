"""Size and speed of ``bleuviz report`` against issue 46's budgets, beside ``compare``.

Two cases, on real WMT17 en-de outputs (/work/shared/data/wmt17-en-de, never
copied into the project):

* TED-shaped: 13 systems x 529 segments (WMT21 TED's shape) with generated MQM
  spans in Google's TSV (about 45% of segments get 1-3 spans of 1-4 words, as
  in the TED release) and chrF. Budgets: at most 2 MB, built in at most 10 s,
  the ranked table on screen within 1 s of opening.
* WMT17 9 x 3,004: ``compare --all-pairs --holm`` timed in the same run, then the
  report with the default ``--max-segments`` (a sample past 20,000 rows) and
  with every segment (``--max-segments 30000``). Budgets: at most 8 MB, built in
  at most 1.5 x compare's time + 5 s; a search in the segment browser answers
  within 200 ms.

Times are the median of ``--repeats`` runs of the command (a fresh process,
start-up included, as a user runs it). The page is opened from disk in Debian's
chromium; "on screen" is the first contentful paint, "ready" the segments
unpacked; a search is timed in the page, the list in view, from the input
event to the list laid out.

Usage, from the project root:
    python -m benchmarks.bench_report [--data DIR] [--repeats 3] [--no-browser]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB = 1 << 20
CATEGORIES = ("Accuracy/Mistranslation", "Fluency/Grammar", "Style/Awkward", "Terminology", "Other")
SEVERITIES = ("Major", "Minor", "Minor")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="/work/shared/data/wmt17-en-de", help="WMT17 folder")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per command")
    parser.add_argument("--no-browser", action="store_true", help="skip the chromium timings")
    return parser.parse_args()


def timed(argv: list[str], repeats: int) -> float:
    """The median wall time of ``python -m bleuviz ARGV`` (fresh processes).

    The median CPU time (user + system) is printed beside it: on a machine shared
    with other work, the wall time of a single-threaded command waits for a core.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1700000000"}
    times, cpu = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        command = [sys.executable, "-m", "bleuviz", *argv]
        done = subprocess.run(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        if done.returncode:
            raise SystemExit(f"bleuviz {argv[0]} failed: {done.stderr.strip()}")
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    print(
        f"  ({argv[0]}: CPU {statistics.median(cpu):.2f} s, wall {statistics.median(times):.2f} s, "
        f"load average {os.getloadavg()[0]:.1f})"
    )
    return statistics.median(times)


def marked(line: str, rnd: random.Random) -> list[tuple[str, str, str]]:
    """0 (55%) or 1-3 spans of 1-4 words: (target with <v> marks, category, severity)."""
    words = line.split(" ")
    if rnd.random() > 0.45 or not line.strip():
        return []
    out = []
    for _ in range(rnd.randint(1, 3)):
        start = rnd.randrange(len(words))
        end = min(len(words), start + rnd.randint(1, 4))
        target = " ".join(
            [*words[:start], "<v>" + " ".join(words[start:end]) + "</v>", *words[end:]]
        )
        out.append((target, rnd.choice(CATEGORIES), rnd.choice(SEVERITIES)))
    return out


def ted_shaped(data: Path, folder: Path) -> list[str]:
    """13 x 529 WMT17 lines with generated MQM spans; return the report's arguments."""
    rnd = random.Random(46)
    n = 529
    hyps = sorted(data.glob("hyp.*.txt"))[:13]
    ref = (data / "ref.de.txt").read_text(encoding="utf-8-sig").splitlines()[:n]
    (folder / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    (folder / "docids.txt").write_text("".join(f"talk.{i // 60}\n" for i in range(n)))
    rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"]
    paths = []
    for path in hyps:
        lines = path.read_text(encoding="utf-8-sig").splitlines()[:n]
        name = path.name.removeprefix("hyp.").removesuffix(".txt")
        out = folder / f"{name}.txt"
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(out))
        for i, line in enumerate(lines):
            doc, doc_id = f"talk.{i // 60}", i % 60 + 1
            spans = marked(line, rnd) or [(line, "No-error", "No-error")]
            for target, category, severity in spans:
                rows.append(f"{name}\t{doc}\t{doc_id}\t{i + 1}\trater{i % 4 + 1}\tsrc\t{target}\t"
                            f"{category}\t{severity}\t")  # fmt: skip
    (folder / "mqm.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return ["--ref", str(folder / "ref.txt"), "--hyp", *paths, "--docids",
            str(folder / "docids.txt"), "--mqm", str(folder / "mqm.tsv"), "-m", "chrf"]  # fmt: skip


def opened(path: Path, search: str | None) -> dict[str, float]:
    """First contentful paint, segments ready, and one search's time, in ms."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(path.resolve().as_uri())
        page.wait_for_selector("body[data-ready=true]", timeout=60_000)
        paint = page.evaluate(
            "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"
        )
        ready = page.evaluate("() => performance.now()")
        out = {"paint": paint, "ready": ready}
        if search is not None:
            out["search"] = page.evaluate(
                """word => { document.getElementById('bv-list').scrollIntoView();
                const box = document.getElementById('bv-search');
                const t = performance.now(); box.value = word;
                box.dispatchEvent(new Event('input')); document.body.offsetHeight;
                return performance.now() - t; }""",
                search,
            )
        browser.close()
    return out


def line(label: str, size: int | None, seconds: float, budget_s: float, budget_mb: float) -> None:
    shown = "" if size is None else f"{size / MB:6.2f} MB (≤ {budget_mb:g})"
    ok = (size is None or size <= budget_mb * MB) and seconds <= budget_s
    print(f"{label:<44} {shown:<20} {seconds:6.2f} s (≤ {budget_s:.1f})  {'ok' if ok else 'OVER'}")


def main() -> None:
    args = parse_args()
    data = Path(args.data)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ted = ted_shaped(data, folder)
        ted_out = folder / "ted.html"
        seconds = timed(["report", *ted, "-o", str(ted_out)], args.repeats)
        line("TED-shaped 13 x 529, MQM, chrF", ted_out.stat().st_size, seconds, 10.0, 2.0)
        hyps = [str(p) for p in sorted(data.glob("hyp.*.txt"))[:9]]
        wmt = ["--ref", str(data / "ref.de.txt"), "--hyp", *hyps]
        compare = timed(["compare", *wmt, "--all-pairs", "--holm", "-f", "json"], args.repeats)
        print(f"{'WMT17 9 x 3,004: compare --all-pairs --holm':<44} {'':<20} {compare:6.2f} s")
        budget = 1.5 * compare + 5
        outs = {}
        for label, extra in (
            ("default --max-segments", []),
            ("every segment", ["--max-segments", "30000"]),
        ):
            out = folder / f"wmt17-{len(outs)}.html"
            seconds = timed(["report", *wmt, *extra, "-o", str(out)], args.repeats)
            line(f"WMT17 9 x 3,004 report, {label}", out.stat().st_size, seconds, budget, 8.0)
            outs[label] = out
        if args.no_browser:
            return
        ted_page = opened(ted_out, None)
        print(f"TED-shaped page: first paint {ted_page['paint']:.0f} ms (≤ 1000), segments ready "
              f"{ted_page['ready']:.0f} ms")  # fmt: skip
        wmt_page = opened(outs["every segment"], "Haus")
        print(
            f"WMT17 every segment: first paint {wmt_page['paint']:.0f} ms, segments ready "
            f"{wmt_page['ready']:.0f} ms, search {wmt_page['search']:.0f} ms (≤ 200)"
        )


if __name__ == "__main__":
    main()
