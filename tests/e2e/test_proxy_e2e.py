"""End to end: a real `plainview proxy` process between urllib and a local origin."""

from __future__ import annotations

import hashlib
import ssl
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from urllib.parse import urlencode

import lxml.html
import pytest
from e2e_servers import OriginServer, ProxyProcess

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Fetched:
    """A response as the client saw it."""

    status: int
    headers: Message
    body: bytes


class Client:
    """urllib through the proxy (HTTP and HTTPS), trusting the proxy's CA."""

    def __init__(self, proxy: ProxyProcess) -> None:
        address = f"http://{proxy.address}"
        context = ssl.create_default_context(cafile=str(proxy.ca_file))
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({"http": address, "https": address}),
            urllib.request.HTTPSHandler(context=context),
        )

    def fetch(
        self,
        url: str,
        *,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Fetched:
        """GET (or POST a form to) a URL through the proxy; HTTP errors are returned too."""
        data = None if form is None else urlencode(form).encode()
        request = urllib.request.Request(url, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as response:
                return Fetched(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return Fetched(error.code, error.headers, error.read())


def direct(url: str) -> bytes:
    """GET a URL from the origin without the proxy."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=30) as response:
        body: bytes = response.read()
        return body


def sha256(data: bytes) -> str:
    """Return the hex SHA-256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def client(proxy_process: ProxyProcess, monkeypatch: pytest.MonkeyPatch) -> Iterator[Client]:
    """Return a client whose every request goes through the proxy (no_proxy ignored)."""
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    yield Client(proxy_process)


@pytest.mark.parametrize("path", ["/image.png", "/style.css", "/data.json", "/download.html"])
def test_subresources_and_downloads_pass_byte_for_byte(
    client: Client, origin_server: OriginServer, path: str
) -> None:
    fetched = client.fetch(origin_server.url(path))
    assert fetched.status == 200
    assert sha256(fetched.body) == sha256(direct(origin_server.url(path)))
    assert fetched.headers.get("Content-Security-Policy") is None


def test_an_article_page_becomes_a_reader_view(client: Client, origin_server: OriginServer) -> None:
    fetched = client.fetch(
        origin_server.url("/article.html"), headers={"Sec-Fetch-Dest": "document"}
    )
    assert fetched.status == 200
    policy = fetched.headers["Content-Security-Policy"]
    assert policy.startswith("default-src 'none'; img-src * data:; style-src 'sha256-")
    assert fetched.headers["Referrer-Policy"] == "no-referrer"
    assert fetched.headers["Set-Cookie"] == "visit=1; Path=/"
    root = lxml.html.document_fromstring(fetched.body)
    assert len(root.findall(".//h1")) == 1
    assert root.xpath("//main/article") and root.xpath("//script") == []
    assert "Healthy" in root.findall(".//h1")[0].text_content()


def test_a_gzipped_article_is_served_decoded(client: Client, origin_server: OriginServer) -> None:
    fetched = client.fetch(origin_server.url("/gzip/article.html"))
    assert fetched.headers.get("Content-Encoding") is None
    assert "Content-Security-Policy" in fetched.headers
    assert lxml.html.document_fromstring(fetched.body).xpath("//main/article")


def test_an_original_mode_rule_keeps_the_page_byte_identical(
    client: Client, origin_server: OriginServer, proxy_process: ProxyProcess
) -> None:
    saved = client.fetch(
        "http://plainview.proxy/rules",
        form={
            "token": proxy_process.secret,
            "host": "127.0.0.1",
            "path": "/original/",
            "mode": "original",
        },
        headers={"Origin": "http://plainview.proxy", "Sec-Fetch-Site": "same-origin"},
    )
    assert saved.status == 200  # urllib followed the 303 back to the settings page
    assert b"/original/" in saved.body
    url = origin_server.url("/original/article.html")
    fetched = client.fetch(url)
    assert sha256(fetched.body) == sha256(direct(url))
    assert fetched.headers.get("Content-Security-Policy") is None


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_the_settings_page_is_served_by_the_proxy(client: Client, scheme: str) -> None:
    fetched = client.fetch(f"{scheme}://plainview.proxy/")
    assert fetched.status == 200
    assert "style-src 'sha256-" in fetched.headers["Content-Security-Policy"]
    root = lxml.html.document_fromstring(fetched.body)
    assert root.findall(".//h1")[0].text == "Plainview settings"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "cross-site"},
        {},
    ],
)
def test_a_post_without_the_token_is_refused(client: Client, headers: dict[str, str]) -> None:
    fetched = client.fetch(
        "http://plainview.proxy/defaults",
        form={"mode": "original", "theme": "dark"},
        headers=headers,
    )
    assert fetched.status == 403
    settings = lxml.html.document_fromstring(client.fetch("http://plainview.proxy/").body)
    assert settings.xpath("//select[@name='theme']/option[@selected]/text()")[0] != "dark"


def test_show_original_works_once_and_the_site_never_sees_the_marker(
    client: Client, origin_server: OriginServer
) -> None:
    url = origin_server.url("/article.html")
    reader = client.fetch(url)
    link = lxml.html.document_fromstring(reader.body).xpath("//a[.='Show original']/@href")[0]
    assert link == url + "?plainview=original"
    original = client.fetch(link)  # the proxy redirects to the clean URL; urllib follows
    assert sha256(original.body) == sha256(direct(url))
    again = client.fetch(url)
    assert "Content-Security-Policy" in again.headers
    assert not any("plainview" in path for path in origin_server.paths)


def test_the_certificate_page_of_mitmproxy_is_left_alone(client: Client) -> None:
    fetched = client.fetch("http://mitm.it/")
    assert fetched.status == 200
    assert b"mitmproxy" in fetched.body
    assert b"Show original" not in fetched.body
