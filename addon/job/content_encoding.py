"""Undo a response's Content-Encoding without ever producing more than a byte limit.

A few kilobytes of gzip, brotli or zstd can expand to gigabytes; decoding in
bounded steps stops a "compression bomb" at the limit instead of exhausting
memory. Runs in the worker processes, off the proxy's event loop.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import brotli  # type: ignore[import-untyped]
import zstandard

# Decoders work in steps of this many output bytes, checking the limit between steps.
STEP = 256 * 1024
# brotli >= 1.2 can cap its output per call; older releases cannot (see _brotli).
_BROTLI_CAN_LIMIT = "output_buffer_limit" in (brotli.Decompressor.process.__doc__ or "")


@dataclass(frozen=True, slots=True)
class Decoded:
    """A decoded body, or None and the reason it could not be decoded within the limit."""

    body: bytes | None
    problem: str = ""


class _TooLarge:
    """Marks output that went past the limit."""


TOO_LARGE = _TooLarge()
Decoder = Callable[[bytes, int], "bytes | _TooLarge"]


def _zlib(data: bytes, limit: int, wbits: int) -> bytes | _TooLarge:
    """Inflate zlib/gzip/raw-deflate data, every concatenated member, up to `limit` bytes."""
    out = bytearray()
    while data:
        inflater = zlib.decompressobj(wbits)
        pending = data
        while pending and not inflater.eof:
            out += inflater.decompress(pending, STEP)
            pending = inflater.unconsumed_tail
            if len(out) > limit:
                return TOO_LARGE
        # A member ends where the next one (if any) starts.
        data = inflater.unused_data if inflater.eof else b""
    return bytes(out)


def _gzip(data: bytes, limit: int) -> bytes | _TooLarge:
    """Decode gzip (several members allowed)."""
    return _zlib(data, limit, zlib.MAX_WBITS | 16)


def _deflate(data: bytes, limit: int) -> bytes | _TooLarge:
    """Decode "deflate": zlib-wrapped as the RFC says, or raw as some servers send it."""
    wrapped = len(data) >= 2 and (data[0] * 256 + data[1]) % 31 == 0 and data[0] & 0x0F == 8
    return _zlib(data, limit, zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)


def _brotli(data: bytes, limit: int) -> bytes | _TooLarge:
    """Decode brotli; bounded per step where the library allows it."""
    decompressor = brotli.Decompressor()
    if not _BROTLI_CAN_LIMIT:
        # brotli < 1.2 has no output cap: one call, checked afterwards.
        whole: bytes = decompressor.process(data)
        return TOO_LARGE if len(whole) > limit else whole
    out = bytearray(decompressor.process(data, output_buffer_limit=STEP))
    while not decompressor.can_accept_more_data() and len(out) <= limit:
        out += decompressor.process(b"", output_buffer_limit=STEP)
    return TOO_LARGE if len(out) > limit else bytes(out)


def _zstd(data: bytes, limit: int) -> bytes | _TooLarge:
    """Decode zstd (several frames allowed) up to `limit` bytes."""
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True)
    out = bytearray()
    while chunk := reader.read(STEP):
        out += chunk
        if len(out) > limit:
            return TOO_LARGE
    return bytes(out)


DECODERS: dict[str, Decoder] = {
    "gzip": _gzip,
    "x-gzip": _gzip,
    "deflate": _deflate,
    "br": _brotli,
    "zstd": _zstd,
}
DECODE_ERRORS = (zlib.error, brotli.error, zstandard.ZstdError)


def decode_body(raw: bytes, content_encoding: str, *, max_bytes: int) -> Decoded:
    """Undo every coding in Content-Encoding (last applied, first undone) within `max_bytes`."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    body = raw
    for coding in reversed(codings):
        if coding == "identity":
            continue
        decoder = DECODERS.get(coding)
        if decoder is None:
            return Decoded(None, f"unsupported Content-Encoding: {coding}")
        try:
            result = decoder(body, max_bytes)
        except DECODE_ERRORS as error:
            return Decoded(None, f"cannot decode the {coding} body: {error}")
        if isinstance(result, _TooLarge):
            return Decoded(None, f"too large once decoded (over {max_bytes} bytes)")
        body = result
    if len(body) > max_bytes:
        return Decoded(None, f"too large ({len(body)} bytes)")
    return Decoded(body)
