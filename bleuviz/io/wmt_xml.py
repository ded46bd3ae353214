"""Parse WMT XML and NIST/WMT SGML test sets into segment-aligned streams.

Replicates sacrebleu's dataset readers (``sacrebleu/dataset/wmt_xml.py`` and
``fake_sgml.py``, version 2.6.0): segment text is stripped and its whitespace
collapsed as sacrebleu's ``Dataset._clean`` does, so scores match ``sacrebleu -t``.
Deliberate deviations, each because sacrebleu silently mis-aligns or crashes:

* A reference or hypothesis that lacks a segment of the source is refused
  (sacrebleu inserts an empty reference, or raises ``KeyError`` for a hypothesis).
* Segments keep the document order of the source instead of being sorted by an
  integer id, so ids need not be numbers.
* SGML entities (the five XML ones and numeric references) are decoded.

This module knows nothing of files or size limits; ``bleuviz.io.load`` does that.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bleuviz.errors import InputError

Key = tuple[str, str]
"""A segment's place in the test set: (document id, segment id)."""

_ENTITY = re.compile(r"&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_SGML_TOKEN = re.compile(
    r"<seg\b(?P<seg>[^>]*)>(?P<text>[^<]*(?:<(?!/?seg\b)[^<]*)*)</seg\s*>"
    r"|<(?P<end>/?)(?P<tag>srcset|refset|tstset|doc)\b(?P<attrs>[^>]*)>"
    r"|(?P<unclosed><seg\b)",
    re.IGNORECASE | re.DOTALL,
)
_SGML_ATTR = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_SGML_SETS = {"srcset": "source", "refset": "reference", "tstset": "system"}
_XML_KINDS = {
    "src": ("source", ""),
    "ref": ("reference", "translator"),
    "hyp": ("system", "system"),
}


@dataclass(frozen=True, slots=True)
class Aligned:
    """Streams of one test set, aligned segment by segment.

    Attributes:
        systems: (system name, lines) pairs in file order; names may repeat.
        references: one tuple of lines per reference stream.
        source: source lines, or None when the input has no source.
        doc_ids: the document id of every segment.
        seg_ids: the segment id of every segment, as written in the input.
    """

    systems: tuple[tuple[str, tuple[str, ...]], ...]
    references: tuple[tuple[str, ...], ...]
    source: tuple[str, ...] | None
    doc_ids: tuple[str, ...]
    seg_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Stream:
    """Segments of one source, reference or system while a file is read."""

    kind: str  # "source", "reference" or "system"
    name: str  # system name or translator; "" for the source
    label: str  # how messages name it, e.g. "<hyp system='B'>"
    file: str
    segs: dict[Key, str] = field(default_factory=dict)

    def add(self, key: Key, text: str, line: int) -> None:
        """Record one segment, refusing an id seen before in the same document."""
        if key in self.segs:
            raise InputError(
                f"{self.file}: line {line}: {self.label} has segment {key[1]!r} "
                f"of doc {key[0]!r} twice"
            )
        self.segs[key] = text


def looks_like_sgml(data: bytes) -> bool:
    """Return whether ``data`` starts like an SGML srcset, refset or tstset."""
    return re.search(rb"<(?:srcset|refset|tstset)\b", data[:4096], re.IGNORECASE) is not None


def parse_wmt_xml(name: str, data: bytes) -> Aligned:
    """Parse a WMT 2021+ XML test set (source, references and systems in one file).

    Documents marked ``testsuite`` and segments for which no reference has text
    are skipped, as in sacrebleu.

    Raises:
        InputError: the XML is malformed or unsafe, or its streams do not align.
    """
    root = _parse_xml(name, data)
    streams: dict[tuple[str, str], _Stream] = {}
    order: list[Key] = []
    for doc in root.iter("doc"):
        if "testsuite" in doc.attrib:
            continue
        doc_id = _xml_attr(name, doc, "id")
        for part in doc.iterchildren("src", "ref", "hyp"):
            stream = _xml_stream(name, part, streams)
            for seg in part.iter("seg"):
                key = (doc_id, _xml_attr(name, seg, "id"))
                stream.add(key, _clean("".join(seg.itertext())), seg.sourceline)
                if stream.kind == "source":
                    order.append(key)
    if not order:
        raise InputError(f"{name}: no <src> segments found in any <doc>")
    return _align(name, list(streams.values()), order, "<src>", skip_unreferenced=True)


def parse_sgml(files: Sequence[tuple[str, str]]) -> Aligned:
    """Parse NIST/WMT SGML files given as (name, text); together they hold one test set.

    Each ``<srcset>``, each ``<refset>`` sysid and each ``<tstset>`` sysid is one
    stream. Segments follow the source, or the first reference without a source.

    Raises:
        InputError: the SGML is malformed or its streams do not align.
    """
    streams = [s for name, text in files for s in _SgmlReader(name).read(text)]
    label = ", ".join(name for name, _ in files)
    sources = [s for s in streams if s.kind == "source"]
    if len(sources) > 1:
        raise InputError(f"{label}: more than one <srcset> found")
    basis = sources[0] if sources else next((s for s in streams if s.kind == "reference"), None)
    if basis is None:
        raise InputError(f"{label}: no <refset> found: references are required")
    return _align(label, streams, list(basis.segs), basis.label, skip_unreferenced=False)


def _clean(text: str) -> str:
    """Strip ``text`` and collapse whitespace runs to one space, as sacrebleu does.

    ``str.split`` splits on exactly the characters that sacrebleu's ``\\s+`` matches.
    """
    return " ".join(text.split())


def _decode_entities(text: str) -> str:
    """Decode the five XML entities and numeric character references in one pass."""
    if "&" not in text:
        return text

    def replace(m: re.Match[str]) -> str:
        if m[1]:
            return _NAMED[m[1]]
        code = int(m[2]) if m[2] else int(m[3], 16)
        valid = 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
        return chr(code) if valid else m[0]

    return _ENTITY.sub(replace, text)


def _parse_xml(name: str, data: bytes) -> Any:
    """Parse XML without network access, DTDs or entity expansion; return the root."""
    # Imported here: only WMT XML needs lxml, and every command that reads files imports this.
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        reason = re.sub(r", line \d+, column \d+$", "", str(e.msg)).replace("\n", " ")
        raise InputError(f"{name}: invalid XML at line {e.lineno}: {reason}") from None
    if root.getroottree().docinfo.internalDTD is not None:
        raise InputError(f"{name}: DOCTYPE declarations are not allowed")
    return root


def _xml_attr(name: str, element: Any, attr: str) -> str:
    """Return a required attribute of an XML element, refusing it when absent."""
    value = element.get(attr)
    if value is None:
        raise InputError(
            f"{name}: line {element.sourceline}: <{element.tag}> has no {attr!r} attribute"
        )
    return str(value)


def _xml_stream(name: str, part: Any, streams: dict[tuple[str, str], _Stream]) -> _Stream:
    """Return the stream that a ``<src>``, ``<ref>`` or ``<hyp>`` element adds to."""
    kind, attr = _XML_KINDS[part.tag]
    if kind == "system":
        who = _xml_attr(name, part, attr)
    else:
        who = str(part.get(attr, "")) if attr else ""
    label = f"<{part.tag} {attr}={who!r}>" if attr else "<src>"
    return streams.setdefault((kind, who), _Stream(kind, who, label, name))


class _SgmlReader:
    """Read the streams of one SGML file with regular expressions (it is not XML)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.streams: dict[tuple[int, str], _Stream] = {}
        self.set: tuple[int, str, str] | None = None  # (index, tag, sysid)
        self.doc: tuple[str, _Stream] | None = None  # (docid, stream)
        self.n_sets = 0
        self.n_segs = 0  # segments so far in the open document

    def read(self, text: str) -> list[_Stream]:
        """Return the streams of ``text`` in the order they first appear."""
        line, pos = 1, 0
        for m in _SGML_TOKEN.finditer(text):
            line, pos = line + text.count("\n", pos, m.start()), m.start()
            if m["unclosed"]:
                raise InputError(f"{self.name}: line {line}: <seg> without </seg>")
            if m["tag"] is None:
                self._seg(m["seg"], m["text"], line)
            elif m["end"]:
                self._close(m["tag"].lower())
            else:
                self._open(m["tag"].lower(), _sgml_attrs(m["attrs"]), line)
        if not self.n_sets:
            raise InputError(f"{self.name}: no <srcset>, <refset> or <tstset> found")
        return list(self.streams.values())

    def _open(self, tag: str, attrs: dict[str, str], line: int) -> None:
        """Start a set or a document."""
        if tag != "doc":
            self.set = (self.n_sets, tag, attrs.get("sysid", ""))
            self.doc = None
            self.n_sets += 1
            return
        if self.set is None:
            raise InputError(f"{self.name}: line {line}: <doc> outside a set")
        index, set_tag, set_sysid = self.set
        kind = _SGML_SETS[set_tag]
        if "docid" not in attrs:
            raise InputError(f"{self.name}: line {line}: <doc> has no docid")
        sysid = "" if kind == "source" else attrs.get("sysid", set_sysid)
        if kind == "system" and not sysid:
            raise InputError(f"{self.name}: line {line}: <doc> in <tstset> has no sysid")
        label = "<srcset>" if kind == "source" else f"<{set_tag} sysid={sysid!r}>"
        stream = self.streams.setdefault((index, sysid), _Stream(kind, sysid, label, self.name))
        self.doc = (attrs["docid"], stream)
        self.n_segs = 0

    def _close(self, tag: str) -> None:
        """End a set or a document."""
        if tag == "doc":
            self.doc = None
        else:
            self.set = self.doc = None

    def _seg(self, attrs: str, text: str, line: int) -> None:
        """Add a segment to the open document; its id defaults to its position."""
        if self.doc is None:
            raise InputError(f"{self.name}: line {line}: <seg> outside a <doc>")
        doc_id, stream = self.doc
        self.n_segs += 1
        seg_id = _sgml_attrs(attrs).get("id", str(self.n_segs))
        stream.add((doc_id, seg_id), _clean(_decode_entities(text)), line)


def _sgml_attrs(text: str) -> dict[str, str]:
    """Parse SGML attributes, quoted or not, with lower-cased names and decoded values."""
    return {
        m[1].lower(): _decode_entities(m[2] or m[3] or m[4] or "")
        for m in _SGML_ATTR.finditer(text)
    }


def _align(
    label: str, streams: Sequence[_Stream], order: list[Key], basis: str, skip_unreferenced: bool
) -> Aligned:
    """Line up every stream on ``order`` (the segments of ``basis``), refusing gaps and extras."""
    refs = [s for s in streams if s.kind == "reference"]
    systems = [s for s in streams if s.kind == "system"]
    if not refs:
        raise InputError(f"{label}: no references found")
    if not systems:
        raise InputError(f"{label}: no system outputs found: nothing to score")
    known = set(order)
    if skip_unreferenced:
        order = [k for k in order if any(r.segs.get(k) for r in refs)]
        if not order:
            raise InputError(f"{label}: no segment has a reference")
    for stream in streams:
        _check_coverage(stream, order, known, basis)
    sources = [_column(s, order) for s in streams if s.kind == "source"]
    return Aligned(
        systems=tuple((s.name, _column(s, order)) for s in systems),
        references=tuple(_column(r, order) for r in refs),
        source=sources[0] if sources else None,
        doc_ids=tuple(doc for doc, _ in order),
        seg_ids=tuple(seg for _, seg in order),
    )


def _check_coverage(stream: _Stream, order: list[Key], known: set[Key], basis: str) -> None:
    """Refuse a stream that lacks a segment of ``order`` or has one outside ``known``."""
    missing = next((k for k in order if k not in stream.segs), None)
    if missing is not None:
        raise InputError(
            f"{stream.file}: doc {missing[0]!r}: {stream.label} lacks segment {missing[1]!r}"
        )
    extra = next((k for k in stream.segs if k not in known), None)
    if extra is not None:
        raise InputError(
            f"{stream.file}: doc {extra[0]!r}: {stream.label} has segment {extra[1]!r}, "
            f"which {basis} lacks"
        )


def _column(stream: _Stream, order: list[Key]) -> tuple[str, ...]:
    """Return the stream's text in segment order."""
    return tuple(stream.segs[k] for k in order)
