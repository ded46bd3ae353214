"""Files to a ``TestSet``: bytes and decoding, plain text, TSV/CSV/JSONL and WMT XML/SGML."""
