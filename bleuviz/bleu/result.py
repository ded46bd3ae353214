"""Score arrays and the scalar score object shared by every BLEU flavour."""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.arrays import FloatArray


@dataclass(frozen=True, slots=True, eq=False)
class BleuArrays:
    """Scores of M rows of statistics, on the 0-100 scale.

    Attributes:
        score: (M,) BLEU.
        precisions: (M, K) modified precision per order after smoothing, 0-100.
        bp: (M,) brevity penalty.
        ratio: (M,) hypothesis length over the reference length the flavour uses.
    """

    score: FloatArray
    precisions: FloatArray
    bp: FloatArray
    ratio: FloatArray


@dataclass(frozen=True, slots=True)
class BleuScore:
    """One BLEU score with the statistics it came from (like sacrebleu's ``BLEUScore``)."""

    score: float
    precisions: tuple[float, ...]
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: int
    signature: str

    def format(self, width: int = 2) -> str:
        """Format as sacrebleu does: ``BLEU = 29.42 76.5/56.2/33.3/21.4 (BP = 0.703 ...)``."""
        precisions = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"BLEU = {self.score:.{width}f} {precisions} (BP = {self.bp:.3f} "
            f"ratio = {self.ratio:.3f} hyp_len = {self.hyp_len:d} ref_len = {self.ref_len:d})"
        )
