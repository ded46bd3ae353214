"""Tokenizers by name, taken from sacrebleu.

bleuviz scores exactly what sacrebleu scores, so tokenization is sacrebleu's
own ``BLEU._preprocess_segment``: optional ``str.lower()``, then the tokenizer
on the right-stripped line (sacrebleu/metrics/bleu.py). For whole corpora,
``bleuviz.bleu.columnar`` replicates four of them (13a, zh, char, none) on
columns of lines; tests hold those replicas token for token to these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module

from bleuviz.errors import ConfigError
from bleuviz.jobs import fork_context

#: Tokenizer names offered by bleuviz, in the order the UI lists them.
TOKENIZERS: tuple[str, ...] = (
    "13a",
    "intl",
    "zh",
    "char",
    "none",
    "ja-mecab",
    "ko-mecab",
    "flores101",
    "flores200",
)

#: sacrebleu's default tokenizer (mteval-v13a, WMT's standard).
DEFAULT_TOKENIZER = "13a"

# Tokenizers that need an optional dependency, and the pip extra that provides it.
_EXTRAS: dict[str, str] = {
    "ja-mecab": "sacrebleu[ja]",
    "ko-mecab": "sacrebleu[ko]",
    "flores101": "sacrebleu[spm]",
    "flores200": "sacrebleu[spm]",
}


@dataclass(frozen=True, slots=True)
class TokenizeConfig:
    """How text becomes tokens: a sacrebleu tokenizer name and lowercasing."""

    name: str = DEFAULT_TOKENIZER
    lowercase: bool = False

    def __post_init__(self) -> None:
        if self.name not in TOKENIZERS:
            raise ConfigError(
                f"tokenize: unknown tokenizer {self.name!r}; choose one of {', '.join(TOKENIZERS)}"
            )


@cache
def get_tokenizer(name: str) -> Callable[[str], str]:
    """Return sacrebleu's tokenizer object for ``name``, with a clear error for missing extras."""
    TokenizeConfig(name)  # validates the name
    from sacrebleu.metrics.bleu import _TOKENIZERS

    module_name, class_name = _TOKENIZERS[name].rsplit(".", 1)
    try:
        module = import_module(f"sacrebleu.tokenizers.{module_name}")
        tokenizer: Callable[[str], str] = getattr(module, class_name)()
    except (ImportError, RuntimeError, OSError) as exc:
        extra = _EXTRAS.get(name, "sacrebleu")
        detail = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise ConfigError(
            f"tokenize: tokenizer {name!r} could not be loaded ({detail}); "
            f"it needs the optional extra: pip install '{extra}'"
        ) from exc
    return tokenizer


#: The ``tok:`` values of sacrebleu 2.6's tokenizers that are their names (each
#: tokenizer class's ``signature()``); the others (mecab's, flores') name the
#: version of what they load, so their objects are asked.
_NAMED_SIGNATURES = frozenset({"13a", "intl", "zh", "char", "none"})


def tokenizer_signature(name: str) -> str:
    """Return the ``tok:`` value sacrebleu writes into its signature for ``name``."""
    if name in _NAMED_SIGNATURES:
        return name  # without loading sacrebleu (0.1-0.2 s)
    signature: Callable[[], str] = get_tokenizer(name).signature  # type: ignore[attr-defined]
    return signature()


def preprocess(line: str, config: TokenizeConfig) -> str:
    """Tokenize one line exactly as sacrebleu's BLEU does; return space-joined tokens."""
    if config.lowercase:
        line = line.lower()
    return get_tokenizer(config.name)(line.rstrip())


#: Below this many lines, tokenizing in worker processes costs more than it saves.
PARALLEL_MIN_LINES = 20_000


def tokenize_lines(lines: Sequence[str], config: TokenizeConfig, workers: int = 1) -> list[str]:
    """Tokenize every line; return the space-joined token strings.

    sacrebleu's regex tokenizers take about half of its running time. With
    ``workers`` > 1, large inputs are split among forked worker processes, each
    running the same sacrebleu tokenizer, and the results are joined in order.
    Forking is only safe in a single-threaded process (the command line), so
    the default is 1, and a threaded process (the app's server) tokenizes here
    whatever ``workers`` (``bleuviz.jobs.fork_context``).
    """
    context = fork_context() if workers > 1 and len(lines) >= PARALLEL_MIN_LINES else None
    if context is None:
        return _tokenize_chunk(list(lines), config)
    from concurrent.futures import ProcessPoolExecutor

    size = -(-len(lines) // workers)
    chunks = [list(lines[i : i + size]) for i in range(0, len(lines), size)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        parts = pool.map(_tokenize_chunk, chunks, [config] * len(chunks))
        return [line for part in parts for line in part]


def _tokenize_chunk(lines: list[str], config: TokenizeConfig) -> list[str]:
    """Tokenize a list of lines in this process."""
    tokenizer = get_tokenizer(config.name)
    if config.lowercase:
        return [tokenizer(line.lower().rstrip()) for line in lines]
    return [tokenizer(line.rstrip()) for line in lines]
