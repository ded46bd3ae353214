"""Files to a ``TestSet``: bytes and decoding, plain text, TSV/CSV/JSONL and WMT XML/SGML."""

from bleuviz.io.assemble import build_testset
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, read_path
from bleuviz.io.load import load_files, load_paths, load_sgml_files, load_xml
from bleuviz.io.plain import load_plain, system_name_from_filename
from bleuviz.io.table import load_table
from bleuviz.io.testset import TestSet
from bleuviz.io.wmt_xml import looks_like_sgml, parse_sgml, parse_wmt_xml

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
