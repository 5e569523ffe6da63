"""Tests for bounded Content-Encoding decoding."""

from __future__ import annotations

import gzip
import zlib

import brotli  # type: ignore[import-untyped]
import pytest
import zstandard

from addon.job.content_encoding import decode_body

PAGE = b"<!doctype html><title>t</title><p>" + "Grüße, ".encode() * 2000 + b"</p>"
LIMIT = 1024 * 1024


def raw_deflate(data: bytes) -> bytes:
    """Compress as raw deflate (no zlib header), as some servers send "deflate"."""
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


ENCODERS = {
    "gzip": gzip.compress,
    "x-gzip": gzip.compress,
    "deflate": zlib.compress,
    "br": brotli.compress,
    "zstd": zstandard.ZstdCompressor().compress,
}


@pytest.mark.parametrize("coding", sorted(ENCODERS))
def test_each_coding_round_trips(coding: str) -> None:
    decoded = decode_body(ENCODERS[coding](PAGE), coding, max_bytes=LIMIT)
    assert decoded.body == PAGE and decoded.problem == ""


@pytest.mark.parametrize("coding", sorted(ENCODERS))
def test_a_bomb_stops_at_the_limit(coding: str) -> None:
    bomb = ENCODERS[coding](b"\0" * (20 * LIMIT))
    assert len(bomb) < LIMIT // 10
    decoded = decode_body(bomb, coding, max_bytes=LIMIT)
    assert decoded.body is None
    assert decoded.problem == f"too large once decoded (over {LIMIT} bytes)"


def test_identity_and_no_coding_keep_the_bytes() -> None:
    assert decode_body(PAGE, "", max_bytes=LIMIT).body == PAGE
    assert decode_body(PAGE, "identity", max_bytes=LIMIT).body == PAGE


def test_an_identity_body_over_the_limit() -> None:
    decoded = decode_body(PAGE, "", max_bytes=100)
    assert decoded.body is None and decoded.problem == f"too large ({len(PAGE)} bytes)"


def test_raw_deflate_is_accepted() -> None:
    assert decode_body(raw_deflate(PAGE), "deflate", max_bytes=LIMIT).body == PAGE


def test_stacked_codings_are_undone_last_first() -> None:
    stacked = brotli.compress(gzip.compress(PAGE))
    assert decode_body(stacked, "gzip, br", max_bytes=LIMIT).body == PAGE


def test_concatenated_gzip_members_are_all_decoded() -> None:
    assert decode_body(gzip.compress(b"ab") + gzip.compress(b"cd"), "gzip", max_bytes=9).body == (
        b"abcd"
    )


def test_zstd_frames_are_all_decoded() -> None:
    compressor = zstandard.ZstdCompressor()
    data = compressor.compress(b"ab") + compressor.compress(b"cd")
    assert decode_body(data, "zstd", max_bytes=9).body == b"abcd"


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br", "zstd"])
def test_corrupt_data_is_a_clear_problem(coding: str) -> None:
    decoded = decode_body(b"\x1f\x8b\x08 this is not compressed", coding, max_bytes=LIMIT)
    assert decoded.body is None
    assert decoded.problem.startswith(f"cannot decode the {coding} body: ")


def test_an_unknown_coding_is_a_clear_problem() -> None:
    decoded = decode_body(PAGE, "compress", max_bytes=LIMIT)
    assert (decoded.body, decoded.problem) == (None, "unsupported Content-Encoding: compress")
