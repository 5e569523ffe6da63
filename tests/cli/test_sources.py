"""Reading pages from files, URLs and streams, with a size cap."""

from __future__ import annotations

import gzip
import io
import zlib
from pathlib import Path

from local_http import Reply, serve

from addon.cli.sources import (
    ACCEPT,
    Page,
    ReadError,
    decode_content,
    is_url,
    read_file,
    read_source,
    read_stream,
    read_url,
)

HTML = b"<html><body><p>Hello</p></body></html>"


def test_read_file_returns_its_bytes_and_the_given_url(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(HTML)
    page = read_file(path, max_bytes=1000, url="https://example.org/a")
    assert page == Page(str(path), HTML, "https://example.org/a", None)


def test_read_file_decompresses_gz(tmp_path: Path) -> None:
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(HTML))
    page = read_file(path, max_bytes=1000)
    assert isinstance(page, Page)
    assert page.body == HTML


def test_read_file_reads_one_byte_past_the_cap(tmp_path: Path) -> None:
    plain = tmp_path / "big.html"
    plain.write_bytes(b"x" * 5000)
    packed = tmp_path / "big.html.gz"
    packed.write_bytes(gzip.compress(b"y" * 5000))
    for path in (plain, packed):
        page = read_file(path, max_bytes=100)
        assert isinstance(page, Page)
        assert len(page.body) == 101


def test_read_file_errors_name_the_reason(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html.gz"
    bad.write_bytes(b"<html>not gzip</html>")
    truncated = tmp_path / "cut.html.gz"
    truncated.write_bytes(gzip.compress(HTML * 50)[:30])
    assert read_file(tmp_path / "none.html", max_bytes=10) == ReadError(
        str(tmp_path / "none.html"), "No such file or directory"
    )
    assert read_file(tmp_path, max_bytes=10) == ReadError(str(tmp_path), "Is a directory")
    for path in (bad, truncated):
        error = read_file(path, max_bytes=10_000)
        assert isinstance(error, ReadError)
        assert error.source == str(path)
        assert error.reason


def test_read_stream_caps_and_names_the_page() -> None:
    page = read_stream(io.BytesIO(b"z" * 50), max_bytes=9, url="https://example.org/")
    assert page == Page("-", b"z" * 10, "https://example.org/", None)


def test_read_source_dispatches_on_the_source(tmp_path: Path) -> None:
    path = tmp_path / "p.html"
    path.write_bytes(HTML)
    assert read_source(str(path), max_bytes=100) == Page(str(path), HTML)
    assert read_source("-", max_bytes=100, stdin=io.BytesIO(HTML)) == Page("-", HTML)
    assert read_source("-", max_bytes=100) == ReadError("-", "no standard input")
    with serve({"/": Reply(200, HTML, {"Content-Type": "text/html"})}) as server:
        page = read_source(server.base + "/", max_bytes=100)
    assert page == Page(server.base + "/", HTML, server.base + "/", "text/html")


def test_is_url() -> None:
    assert is_url("https://example.org/")
    assert is_url("HTTP://example.org/")
    assert not is_url("example.org/page.html")
    assert not is_url("ftp://example.org/")


def test_read_url_follows_redirects_and_sends_accept() -> None:
    routes = {
        "/old": Reply(301, b"", {"Location": "/new"}),
        "/new": Reply(200, HTML, {"Content-Type": "text/html; charset=iso-8859-1"}),
    }
    with serve(routes) as server:
        page = read_url(server.base + "/old", max_bytes=1000)
    assert page == Page(
        server.base + "/old", HTML, server.base + "/new", "text/html; charset=iso-8859-1"
    )
    assert [request["path"] for request in server.requests] == ["/old", "/new"]
    assert all(request["Accept"] == ACCEPT for request in server.requests)
    assert "Mozilla/5.0" in server.requests[0]["User-Agent"]


def test_read_url_reports_http_errors_and_refused_connections() -> None:
    with serve({}) as server:
        assert read_url(server.base + "/gone", max_bytes=100) == ReadError(
            server.base + "/gone", "HTTP 404 Not Found"
        )
    # The server is stopped now, so its port refuses connections.
    refused = read_url(server.base + "/", max_bytes=100, timeout=5)
    assert isinstance(refused, ReadError)
    assert "refused" in refused.reason.lower()


def test_read_url_decodes_content_encoding_and_caps_it() -> None:
    routes = {
        "/gz": Reply(200, gzip.compress(HTML), {"Content-Encoding": "gzip"}),
        "/big": Reply(200, gzip.compress(b"a" * 10_000), {"Content-Encoding": "gzip"}),
        "/br": Reply(200, b"\x0b\x02\x80", {"Content-Encoding": "br"}),
    }
    with serve(routes) as server:
        packed = read_url(server.base + "/gz", max_bytes=1000)
        big = read_url(server.base + "/big", max_bytes=1000)
        brotli = read_url(server.base + "/br", max_bytes=1000)
    assert isinstance(packed, Page)
    assert packed.body == HTML
    assert isinstance(big, Page)
    assert len(big.body) == 1001
    assert brotli == ReadError(server.base + "/br", "cannot decode Content-Encoding 'br'")


def test_decode_content() -> None:
    assert decode_content(HTML, "", max_bytes=100) == HTML
    assert decode_content(HTML, " Identity ", max_bytes=100) == HTML
    assert decode_content(zlib.compress(HTML), "deflate", max_bytes=100) == HTML
    assert decode_content(gzip.compress(HTML), "deflate", max_bytes=100) == HTML
    assert decode_content(gzip.compress(HTML), "x-gzip", max_bytes=5) == HTML[:6]
    assert decode_content(b"not compressed", "gzip", max_bytes=100) is None
    assert decode_content(HTML, "compress", max_bytes=100) is None
