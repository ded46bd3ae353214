"""The bundled sample: a small test set written for this project, shipped with the package.

Three systems (``literal``, ``terse``, ``repeat``) translate a German source into
English against two references; the README beside these files lists the
golden numbers and the sample's terms.
"""

from pathlib import Path

SAMPLE_DIR = Path(__file__).resolve().parent
SAMPLE_HYPS = tuple(SAMPLE_DIR / f"hyp.{name}.en" for name in ("literal", "terse", "repeat"))
SAMPLE_REFS = (SAMPLE_DIR / "ref.A.en", SAMPLE_DIR / "ref.B.en")
SAMPLE_SOURCE = SAMPLE_DIR / "source.de"
SAMPLE_DOCIDS = SAMPLE_DIR / "docids.txt"
