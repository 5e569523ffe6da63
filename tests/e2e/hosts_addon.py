"""A mitmproxy addon for the end-to-end tests: host names under .test reach 127.0.0.1.

Chromium sends Fetch Metadata to loopback origins, as to HTTPS ones; a page at
http://site.test:PORT/ is what a plain-HTTP site on the web looks like to it.
"""

from __future__ import annotations

from mitmproxy.proxy.server_hooks import ServerConnectionHookData


def server_connect(data: ServerConnectionHookData) -> None:
    """Connect to 127.0.0.1, same port, for a host under .test."""
    address = data.server.address
    if address is not None and address[0].rstrip(".").endswith(".test"):
        data.server.address = ("127.0.0.1", address[1])
