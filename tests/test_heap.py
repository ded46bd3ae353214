"""``bleuviz.heap.keep_freed_memory``: glibc's two thresholds raised, nothing elsewhere."""

from __future__ import annotations

from unittest import mock

import pytest

from bleuviz import heap


def test_glibc_keeps_what_a_chunk_frees() -> None:
    libc = mock.Mock()
    with (
        mock.patch.object(heap.os, "confstr", return_value="glibc 2.36"),
        mock.patch.object(heap.ctypes, "CDLL", return_value=libc) as load,
    ):
        heap.keep_freed_memory()
    load.assert_called_once_with(None)
    assert libc.mallopt.call_args_list == [
        mock.call(-3, 32 * 1024 * 1024),  # M_MMAP_THRESHOLD, its 64-bit maximum
        mock.call(-1, 512 * 1024 * 1024),  # M_TRIM_THRESHOLD
    ]


@pytest.mark.parametrize(
    "confstr", [mock.Mock(return_value=None), mock.Mock(side_effect=ValueError)]
)
def test_without_glibc_nothing_is_loaded(confstr: mock.Mock) -> None:
    with (
        mock.patch.object(heap.os, "confstr", confstr),
        mock.patch.object(heap.ctypes, "CDLL") as load,
    ):
        heap.keep_freed_memory()
    load.assert_not_called()
