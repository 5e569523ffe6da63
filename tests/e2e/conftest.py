"""Fixtures for end-to-end tests: a local origin server and a real `plainview proxy` process.

Reusable by browser tests: `origin_server.url(path)` gives a page's address,
`proxy_process.address` the proxy's "host:port", and `proxy_process.ca_file`
the CA certificate a client must trust for HTTPS.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2e_servers import OriginServer, ProxyProcess, proxy_or_fail, serve_origin


@pytest.fixture(scope="session")
def origin_server() -> Iterator[OriginServer]:
    """Serve an article page, an image, CSS, JSON and a download on 127.0.0.1."""
    with serve_origin() as origin:
        yield origin


@pytest.fixture(scope="session")
def proxy_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProxyProcess]:
    """Run `plainview proxy` on a free port with a fresh config and a fresh CA."""
    with proxy_or_fail(tmp_path_factory.mktemp("plainview")) as proxy:
        yield proxy
