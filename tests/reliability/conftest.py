"""Fixtures of the reliability gates: the end-to-end servers, with the proxy in reader mode."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The end-to-end tests' server helpers live beside their own conftest.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))

from e2e_servers import OriginServer, ProxyProcess, proxy_or_fail, serve_origin


@pytest.fixture(scope="module")
def gate_origin() -> Iterator[OriginServer]:
    """Serve the end-to-end origin's pages; tests add their own to `served`."""
    with serve_origin() as origin:
        yield origin


@pytest.fixture(scope="module")
def reader_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProxyProcess]:
    """Run `plainview proxy` in reader mode: every page it can read becomes a reader view."""
    with proxy_or_fail(tmp_path_factory.mktemp("plainview"), "--mode", "reader") as proxy:
        yield proxy
