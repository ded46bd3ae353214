"""Every path of this repository that README.md names exists.

The rule for what is ours, read from the inline code (backticks) outside fenced
blocks, word by word (a command such as ``python3 benchmarks/bench_app.py`` names
a path too):

* A link's target (``![screenshot](docs/screenshot.png)``) is a path from the
  repository's root unless it is a URL or an anchor (``https://``, ``#serving``).
* A word starting with one of ``ROOTS`` (``bleuviz/``, ``tests/``, ...) is a
  path from the repository's root. So is a dotted module after ``-m``
  (``python3 -m benchmarks.bench_metrics``).
* A relative name, a module file or a folder (``seg_scores.py``, ``flavors/``,
  ``ui/cache/``), belongs to the last folder of ours the same table row or
  paragraph named before it (the io row's package, the app's paragraph), and is
  looked up there or in a folder above it (a checkout's ``app.py``). In a row or
  paragraph that names no folder of ours first, it is another project's
  (mt-metrics-eval's ``stats.py``, the ESA release's ``merge_to_jsonl.py``).
* Anything else is not a path of ours: URLs and app routes (``/overview``,
  ``/_stcore/stream``), user files (``hyp.sysA.txt``), home folders.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The top folders of this repository that the README's paths start from.
ROOTS = ("bleuviz/", "tests/", "benchmarks/", "docs/", ".ci/", ".streamlit/")
INLINE = re.compile(r"`([^`\n]+)`")
#: The packages whose modules ``python3 -m`` names.
PACKAGES = ("bleuviz", "benchmarks")
RELATIVE = re.compile(r"[\w-]+(?:/[\w-]+)*(?:\.py|/)")
MODULE = re.compile(r"\w+(?:\.\w+)*")
LINK = re.compile(r"\]\(([^)\s]+)\)")
ELSEWHERE = re.compile(r"[a-z]+:|#")


def _blocks(markdown: str) -> Iterator[str]:
    """The table rows and paragraphs of ``markdown``, fenced code left out."""
    block: list[str] = []
    fenced = False
    for line in [*markdown.splitlines(), ""]:
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            continue
        elif line.startswith("|") or not line.strip():
            yield "\n".join(block)
            block = [line] if line.startswith("|") else []
        else:
            block.append(line)


def _words(block: str) -> Iterator[tuple[str, str]]:
    """Each word of the block's inline code, with the word before it in the same span."""
    for span in INLINE.findall(block):
        words = span.split()
        yield from zip(["", *words], words, strict=False)


def named_paths(
    markdown: str, roots: tuple[str, ...] = ROOTS, packages: tuple[str, ...] = PACKAGES
) -> list[tuple[str, list[str]]]:
    """Each path of ours ``markdown`` names, with the candidates it may resolve to."""
    found = []
    for block in _blocks(markdown):
        found += [(link, [link]) for link in LINK.findall(block) if not ELSEWHERE.match(link)]
        folder: str | None = None
        for before, word in _words(block):
            if word.startswith(roots):
                found.append((word, [word]))
                folder = word if word.endswith("/") else word.rpartition("/")[0] + "/"
            elif before == "-m" and MODULE.fullmatch(word) and word.split(".")[0] in packages:
                module = word.replace(".", "/")
                found.append((word, [module + ".py", module + "/__init__.py", module + "/"]))
            elif folder is not None and RELATIVE.fullmatch(word):
                parents = Path(folder).parents
                found.append((word, [f"{folder}{word}", *(f"{p}/{word}" for p in parents)]))
    return found


def missing(
    markdown: str, root: Path, roots: tuple[str, ...] = ROOTS, packages: tuple[str, ...] = PACKAGES
) -> list[str]:
    """The paths ``markdown`` names that exist under ``root`` by none of their candidates."""
    return [
        word
        for word, candidates in named_paths(markdown, roots, packages)
        if not any((root / c).exists() for c in candidates)
    ]


def test_every_path_the_readme_names_exists() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert len(named_paths(readme)) > 50  # the tree's description is read
    assert missing(readme, ROOT) == []


def test_the_rule_tells_ours_from_others(tmp_path: Path) -> None:
    """Stale paths of ours are found; other projects' files and URLs are not ours."""
    for path in ("pkg/io/seg_scores.py", "pkg/app/ui/cache/x.py", "app.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    markdown = (
        "![shot](pkg/shot.png) [docs](https://example.org/a.py) [up](#serving)\n\n"
        "Segment level, by mt-metrics-eval's rules (`stats.py`, `converters/score_mqm.py`);\n"
        "the app answers `/overview` and `/_stcore/stream`, reads `hyp.sysA.txt`.\n\n"
        "| package | stage |\n| --- | --- |\n"
        "| `pkg/io/` | scores from outside (`seg_scores.py`, `gone.py`) |\n"
        "| `pkg/old/` | moved |\n\n"
        "The sections in `pkg/app/ui/` by role (`cache/`, `frame/`); `ui/cache/` caches.\n"
        "A checkout's `app.py`; `python3 pkg/bench.py --repeats 5`, `python3 -m pkg.tool`.\n"
        "```\npython3 pkg/fenced.py\n```\n"
    )
    assert missing(markdown, tmp_path, ("pkg/",), ("pkg",)) == [
        "pkg/shot.png",
        "gone.py",
        "pkg/old/",
        "frame/",
        "pkg/bench.py",
        "pkg.tool",
    ]
