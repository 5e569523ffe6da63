"""The parser gate: malformed, extreme and mis-encoded pages through `extract` and the proxy.

The whole gate runs here: every html5lib tree-construction input and every
encodings page in one `plainview extract --format jsonl` process each, and
every extreme page in a process of its own (so its peak memory is its own).
Each page must give an article or a skip with a reason; the command's time
budget (2 s, as the proxy's) turns a slow page into a skip, and the runner's
watchdog turns a page that never finishes into a hang.
"""

from __future__ import annotations

import gzip
import hashlib
from collections import Counter
from pathlib import Path

import lxml.html
import pytest
from e2e_servers import Fetched, OriginServer, ProxyProcess, Resource, fetch_through
from plainview_dev import gates

BUDGET = 2.0
# Per the corpora's READMEs.
CORPUS_SIZES = {"html5lib-tree": 1796, "encodings": 11, "extremes": 9}
OVER_BUDGET = f"over the time budget ({BUDGET:g} s)"
# The small extremes, whose outcome does not depend on the machine's speed.
EXPECTED_EXTREMES = {
    "empty.html": ("skip", "empty page: no text"),
    "whitespace-only.html": ("skip", "empty page: no text"),
    "whitespace-unicode-only.html": ("skip", "not HTML: no markup"),
    "binary-garbage-64kib.html": ("skip", "not HTML: binary data"),
    "truncated-mid-tag.html": ("article", ""),
}
PLAINVIEW_CSP = "default-src 'none'; img-src * data:; style-src 'sha256-"
# Every 20th html5lib input goes through the proxy too.
HTML5LIB_STRIDE = 20


@pytest.fixture(scope="module")
def results() -> list[gates.PageResult]:
    found = gates.run_parser_gate(budget=BUDGET)
    print("\n" + gates.format_parser_report(found, BUDGET))
    return found


def by_name(results: list[gates.PageResult], corpus: str) -> dict[str, gates.PageResult]:
    return {Path(r.source).name: r for r in results if r.corpus == corpus}


def test_every_input_of_every_corpus_gives_one_result(results: list[gates.PageResult]) -> None:
    for corpus, size in CORPUS_SIZES.items():
        names = [Path(r.source).name for r in results if r.corpus == corpus]
        assert len(names) == len(set(names)) == size, corpus
        assert set(names) == {p.name for p in gates.corpus_files(corpus)}


def test_no_crash_no_hang_and_every_skip_has_a_reason(results: list[gates.PageResult]) -> None:
    failures = [r for r in results if r.outcome not in ("article", "skip")]
    assert failures == []
    assert all(r.reason for r in results if r.outcome == "skip")
    assert all(r.ms is not None and r.peak_kib > 0 for r in results)


def test_the_small_extremes_give_their_known_outcome(results: list[gates.PageResult]) -> None:
    extremes = by_name(results, "extremes")
    got = {name: (extremes[name].outcome, extremes[name].reason) for name in EXPECTED_EXTREMES}
    assert got == EXPECTED_EXTREMES


def test_the_large_extremes_give_an_article_or_hit_the_budget(
    results: list[gates.PageResult],
) -> None:
    for name, result in by_name(results, "extremes").items():
        if name not in EXPECTED_EXTREMES:
            assert (result.outcome, result.reason) in (("article", ""), ("skip", OVER_BUDGET))


def test_every_encodings_page_is_an_article(results: list[gates.PageResult]) -> None:
    assert {name: r.outcome for name, r in by_name(results, "encodings").items()} == dict.fromkeys(
        by_name(results, "encodings"), "article"
    )


# -- Through the proxy -----------------------------------------------------------------------


def fetch(proxy: ProxyProcess, url: str) -> Fetched:
    """GET a page through the proxy as a browser's navigation."""
    return fetch_through(proxy, url, headers={"Sec-Fetch-Dest": "document"})


def proxy_sample() -> dict[str, Resource]:
    """Return the pages served through the proxy: every extreme, a sample of html5lib."""
    html = (("Content-Type", "text/html; charset=utf-8"),)
    served: dict[str, Resource] = {}
    for path in gates.corpus_files("extremes"):
        raw = path.read_bytes()
        if path.suffix == ".gz":
            # Sent as is with Content-Encoding: the proxy's bounded decompression too.
            coded = (*html, ("Content-Encoding", "gzip"))
            served[f"/gate/extremes/gzip/{path.name}"] = Resource(raw, coded)
            raw = gzip.decompress(raw)
        served[f"/gate/extremes/{path.name}"] = Resource(raw, html)
    for path in gates.corpus_files("html5lib-tree")[::HTML5LIB_STRIDE]:
        case = path.read_bytes()
        served[f"/gate/html5lib/{path.name}"] = Resource(case, html)
        # Alone most cases are too short for a reader view; inside an article they are parsed
        # and transformed with it.
        page = gates.article_page(case.decode("utf-8"), "paragraph")
        served[f"/gate/html5lib-in-article/{path.name}"] = Resource(page, html)
    return served


@pytest.fixture(scope="module")
def sample_origin(gate_origin: OriginServer) -> OriginServer:
    gate_origin.served.update(proxy_sample())
    return gate_origin


def outcome_through_proxy(fetched: Fetched, served: Resource, url: str) -> str:
    """Say what the proxy did: "reader view" or "passed through"; fail on anything else."""
    assert fetched.status == 200, url
    policy = fetched.headers.get("Content-Security-Policy")
    if policy is None:
        digest = hashlib.sha256(fetched.body).hexdigest()
        assert digest == hashlib.sha256(served.body).hexdigest(), f"{url}: changed bytes"
        return "passed through"
    assert policy.startswith(PLAINVIEW_CSP), url
    root = lxml.html.document_fromstring(fetched.body)
    assert len(root.findall(".//h1")) == 1 and root.findall(".//main/article"), url
    assert gates.executable_constructs(fetched.body, gates.gate_links(url)) == [], url
    return "reader view"


@pytest.mark.e2e
def test_sample_pages_through_the_proxy_are_reader_views_or_untouched(
    sample_origin: OriginServer, reader_proxy: ProxyProcess
) -> None:
    paths = [path for path in sample_origin.served if path.startswith("/gate/")]
    outcomes: dict[str, str] = {}
    for path in paths:
        url = sample_origin.url(path)
        outcomes[path] = outcome_through_proxy(
            fetch(reader_proxy, url), sample_origin.served[path], url
        )
    groups = Counter((path.split("/")[2], outcome) for path, outcome in outcomes.items())
    print("\nthrough the proxy:", sorted(groups.items()))
    cases = len(range(0, CORPUS_SIZES["html5lib-tree"], HTML5LIB_STRIDE))
    assert len(outcomes) == 9 + 4 + 2 * cases
    # The proxy really transforms: readable pages become reader views.
    assert outcomes["/gate/extremes/truncated-mid-tag.html"] == "reader view"
    assert outcomes["/gate/extremes/gzip/one-line-5mib-no-newlines.html.gz"] == "reader view"
    in_article = [v for path, v in outcomes.items() if path.startswith("/gate/html5lib-in-")]
    assert in_article.count("reader view") >= 0.5 * cases
    # Above the proxy's 8 MiB limit the page goes out as sent, compressed or not.
    assert outcomes["/gate/extremes/article-20mib.html.gz"] == "passed through"
    assert outcomes["/gate/extremes/gzip/article-20mib.html.gz"] == "passed through"
    assert outcomes["/gate/extremes/empty.html"] == "passed through"
