"""No two modules of bleuviz import each other, directly or through others.

The graph is grimp's (the one import-linter reads), built from the source: it
holds every import, including those under ``if TYPE_CHECKING:`` and those
inside functions (imported on use), so a cycle hidden by either still counts.
A module is on a cycle when an import of it leads back to it; the strongly
connected components of the graph are then single modules. pyproject.toml's
import-linter contracts say the same per package (``acyclic_siblings``) and
forbid imports up the stages (``layers``); this test covers every module,
the app's included.
"""

from __future__ import annotations

import grimp
import pytest


def cycles(graph: grimp.ImportGraph, package: str) -> list[tuple[str, ...]]:
    """Return a shortest cycle through each import of ``package`` that lies on one.

    A cycle is written ``(a, b, ..., a)``: ``a`` imports ``b``, ..., which imports ``a``.
    """
    found = []
    inside = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    for importer in inside:
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None and imported != importer:
                found.append((importer, *back))
    return found


@pytest.fixture(scope="module")
def bleuviz_graph() -> grimp.ImportGraph:
    """Return the import graph of the bleuviz package as it is on disk (no cache)."""
    return grimp.build_graph("bleuviz", cache_dir=None)


def test_no_module_of_bleuviz_is_on_an_import_cycle(bleuviz_graph: grimp.ImportGraph) -> None:
    found = cycles(bleuviz_graph, "bleuviz")
    assert found == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_graph_holds_type_checking_and_function_level_imports(
    bleuviz_graph: grimp.ImportGraph,
) -> None:
    # Known edges of both kinds: the check would miss a cycle through them otherwise.
    assert bleuviz_graph.direct_import_exists(
        importer="bleuviz.io.testset", imported="bleuviz.io.scores"
    )  # under TYPE_CHECKING
    assert bleuviz_graph.direct_import_exists(
        importer="bleuviz.metrics.ter_score", imported="bleuviz.metrics.sacrebleu_adapter"
    )  # inside ter_statistics


def hand_graph(*imports: tuple[str, str]) -> grimp.ImportGraph:
    """Return a graph of the given (importer, imported) pairs."""
    graph = grimp.ImportGraph()
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported)
    return graph


@pytest.mark.parametrize(
    ("imports", "expected"),
    [
        ([("p.a", "p.b"), ("p.b", "p.c")], []),
        ([("p.a", "p.b"), ("p.b", "p.a")], [("p.a", "p.b", "p.a"), ("p.b", "p.a", "p.b")]),
        (
            [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "q.x")],
            [
                ("p.a", "p.b", "p.c", "p.a"),
                ("p.b", "p.c", "p.a", "p.b"),
                ("p.c", "p.a", "p.b", "p.c"),
            ],
        ),
        ([("q.x", "q.y"), ("q.y", "q.x"), ("p.a", "q.x")], []),  # outside the package
    ],
)
def test_cycles_on_hand_built_graphs(
    imports: list[tuple[str, str]], expected: list[tuple[str, ...]]
) -> None:
    assert cycles(hand_graph(*imports), "p") == expected
