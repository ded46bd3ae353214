"""The Learn page's numbers, cached on the typed text and the page's own settings.

A class opening one lesson link asks for the same numbers once per student:
each function here takes the text and the settings it reads (Learn holds no
workspace and no evaluation) and returns frozen results, computed once and
shared by every session (``cached_resource``: never mutated). The entries are
bounded, so typing does not grow the cache without end.
"""

from __future__ import annotations

from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.teach.chrf_steps import ChrfWalk, chrf_walkthrough
from bleuviz.teach.flavors import WayResult, compare_ways
from bleuviz.teach.ideas import Tokenized, through_tokenizers
from bleuviz.teach.ter_steps import TerWalk, ter_walkthrough
from bleuviz.teach.walkthrough import Walkthrough, build_walkthrough
from bleuviz.teach.why import Group, Parting, group_ways, partings

ENTRIES = 256


@cached_resource(max_entries=ENTRIES, show_spinner=False)
def walkthrough(
    hyp: str, refs: tuple[str, ...], tokenize: TokenizeConfig, config: BleuConfig
) -> Walkthrough:
    """BLEU's steps for the input (``bleuviz.teach.walkthrough``)."""
    return build_walkthrough(hyp, refs, tokenize, config)


@cached_resource(max_entries=ENTRIES, show_spinner=False)
def library_calls(
    hyp: str, refs: tuple[str, ...], tokenize: TokenizeConfig
) -> tuple[tuple[WayResult, ...], tuple[Group, ...], tuple[Parting, ...]]:
    """Every library call's score, the groups that agree, and where each two part."""
    groups = group_ways(hyp, refs, tokenize)
    return compare_ways(hyp, refs, tokenize), groups, partings(groups)


@cached_resource(max_entries=ENTRIES, show_spinner=False)
def tokenizers(
    hyp: str, refs: tuple[str, ...], tokenize: TokenizeConfig, config: BleuConfig
) -> tuple[Tokenized, ...]:
    """The input through each demonstrated tokenizer."""
    return through_tokenizers(hyp, refs, tokenize, config)


@cached_resource(max_entries=ENTRIES, show_spinner=False)
def chrf(hyp: str, refs: tuple[str, ...], config: ChrfConfig) -> ChrfWalk:
    """chrF's steps for the input."""
    return chrf_walkthrough(hyp, refs, config)


@cached_resource(max_entries=ENTRIES, show_spinner=False)
def ter(hyp: str, refs: tuple[str, ...], config: TerConfig) -> TerWalk:
    """TER's steps for the input."""
    return ter_walkthrough(hyp, refs, config)
