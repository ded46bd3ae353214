"""Files to a ``TestSet``: bytes and decoding, plain text, TSV/CSV/JSONL and WMT XML/SGML."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.io.assemble import build_testset
    from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, read_path
    from bleuviz.io.load import load_files, load_paths, load_sgml_files, load_xml
    from bleuviz.io.plain import load_plain, system_name_from_filename
    from bleuviz.io.table import load_table
    from bleuviz.io.testset import TestSet
    from bleuviz.io.wmt_xml import looks_like_sgml, parse_sgml, parse_wmt_xml

_EXPORTS = {
    "build_testset": "bleuviz.io.assemble",
    "DEFAULT_MAX_BYTES": "bleuviz.io.decode",
    "NamedBytes": "bleuviz.io.decode",
    "decode_lines": "bleuviz.io.decode",
    "read_path": "bleuviz.io.decode",
    "load_files": "bleuviz.io.load",
    "load_paths": "bleuviz.io.load",
    "load_sgml_files": "bleuviz.io.load",
    "load_xml": "bleuviz.io.load",
    "load_plain": "bleuviz.io.plain",
    "system_name_from_filename": "bleuviz.io.plain",
    "load_table": "bleuviz.io.table",
    "TestSet": "bleuviz.io.testset",
    "looks_like_sgml": "bleuviz.io.wmt_xml",
    "parse_sgml": "bleuviz.io.wmt_xml",
    "parse_wmt_xml": "bleuviz.io.wmt_xml",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "DEFAULT_MAX_BYTES",
    "NamedBytes",
    "TestSet",
    "build_testset",
    "decode_lines",
    "load_files",
    "load_paths",
    "load_plain",
    "load_sgml_files",
    "load_table",
    "load_xml",
    "looks_like_sgml",
    "parse_sgml",
    "parse_wmt_xml",
    "read_path",
    "system_name_from_filename",
]
