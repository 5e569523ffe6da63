"""Run axe-core on every reader view Plainview makes of the reference pages, and on its own
pages, in each theme, through a real `plainview proxy` and real Chromium (issue 30, 6).

    scripts/axe-audit [--json out/axe-audit.json] [--wcxb 50]

Pages: every folder of readability-even forced into the reader view (a site rule
for the origin), `--wcxb` wcxb-dev articles spread over their ids, and the
settings page, a "why" page and the answer to "Always original". Themes: light,
dark, sepia. Exits 1 if axe finds any violation on a reader view or a Plainview
page; a page that stays the original (no reader view) is listed, not audited.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
import threading
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, sync_playwright

from plainview_dev.loadtest import run_proxy

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--proxy-bypass-list=<-loopback>",
]  # fmt: skip
THEMES = ("light", "dark", "sepia")
SETTINGS = "http://plainview.proxy/"
PLAINVIEW_CSP = "default-src 'none'"


@dataclass
class Audit:
    """Violations by page and theme, and the pages that stayed the original."""

    violations: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    originals: list[str] = field(default_factory=list)
    audited: int = 0

    def add(self, name: str, found: list[dict[str, Any]]) -> None:
        """Record one audited page."""
        self.audited += 1
        if found:
            self.violations[name] = found

    @property
    def counts(self) -> Counter[str]:
        """Return the violating nodes by rule."""
        counts: Counter[str] = Counter()
        for found in self.violations.values():
            for violation in found:
                counts[violation["id"]] += violation["nodes"]
        return counts


def reference_pages(wcxb: int) -> dict[str, bytes]:
    """Return the pages to serve, by path: every readability-even page, some articles."""
    pages = {
        f"/re/{folder.name}.html": (folder / "source.html").read_bytes()
        for folder in sorted((SHARED / "readability-even").iterdir())
        if (folder / "source.html").is_file()
    }
    articles = sorted(_articles(SHARED / "wcxb-dev" / "ground-truth"))
    step = max(1, len(articles) // max(wcxb, 1))
    for page_id in articles[::step][:wcxb]:
        html = gzip.decompress((SHARED / "wcxb-dev" / "html" / f"{page_id}.html.gz").read_bytes())
        pages[f"/wcxb/{page_id}.html"] = html
    return pages


def _articles(truths: Path) -> Iterator[str]:
    """Yield the file ids of wcxb-dev's article pages, by their ground truth."""
    for path in truths.glob("*.json"):
        truth = json.loads(path.read_text(encoding="utf-8"))
        if truth["_internal"]["page_type"]["primary"] == "article":
            yield path.stem


@contextmanager
def serve(pages: dict[str, bytes]) -> Iterator[str]:
    """Serve the pages as UTF-8 HTML on 127.0.0.1; yield the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path.split("?", 1)[0])
            self.send_response(404 if body is None else 200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            with suppress(ConnectionError):  # the page's own script may abort a load
                self.wfile.write(body or b"")

        def log_message(self, format: str, *args: object) -> None:
            """Stay quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def post_settings(port: int, path: str, form: dict[str, str]) -> None:
    """POST a settings form through the proxy, as the settings page does."""
    request = urllib.request.Request(
        f"{SETTINGS.rstrip('/')}{path}",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Origin": SETTINGS.rstrip("/"), "Sec-Fetch-Site": "same-origin"},
    )
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({"http": f"http://127.0.0.1:{port}"})
    )
    with opener.open(request, timeout=60) as answer:
        answer.read()


def violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on the page; return each violated rule with its node count."""
    page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})"
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"]),
         "targets": [n["target"] for n in v["nodes"]][:3]}
        for v in result["violations"]
    ]  # fmt: skip


def audit_theme(
    context: BrowserContext, base: str, paths: list[str], theme: str, audit: Audit
) -> None:
    """Audit every reader view and Plainview's own pages in one theme."""
    page = context.new_page()
    readers = []
    for path in paths:
        response = page.goto(base + path, wait_until="domcontentloaded")
        policy = "" if response is None else response.headers.get("content-security-policy", "")
        if not policy.startswith(PLAINVIEW_CSP):
            audit.originals.append(f"{theme} {path}")
            continue
        readers.append(path)
        audit.add(f"{theme} {path}", violations(page))
    page.goto(SETTINGS)
    audit.add(f"{theme} settings", violations(page))
    page.click("a[href^='/why?id=']")
    audit.add(f"{theme} why", violations(page))
    page.goto(base + readers[0])
    with page.expect_navigation():
        page.click("text=Always original on this site")
    audit.add(f"{theme} always-original answer", violations(page))
    with page.expect_navigation():  # the next theme's pages must be reader views again
        page.click("text=Undo: take the rule back")
    page.close()


def run(wcxb: int) -> Audit:
    """Audit all pages in all themes through a fresh proxy in reader mode."""
    audit = Audit()
    pages = reference_pages(wcxb)
    with (
        tempfile.TemporaryDirectory() as home,
        serve(pages) as base,
        run_proxy(Path(home), ("--mode", "reader")) as (_pid, port),
        sync_playwright() as driver,
    ):
        secret = (Path(home) / "config" / "secret-token").read_text().strip()
        context = driver.chromium.launch_persistent_context(
            str(Path(home) / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
            headless=True, proxy={"server": f"http://127.0.0.1:{port}"}, bypass_csp=True,
        )  # fmt: skip
        try:
            for theme in THEMES:
                form = {"token": secret, "mode": "reader", "theme": theme}
                post_settings(port, "/defaults", form)
                audit_theme(context, base, sorted(pages), theme, audit)
        finally:
            context.close()
    return audit


def main(argv: list[str] | None = None) -> int:
    """Run the audit, write the JSON report, print the summary."""
    parser = argparse.ArgumentParser(prog="scripts/axe-audit", description=__doc__)
    parser.add_argument("--json", type=Path, default=ROOT / "out" / "axe-audit.json")
    parser.add_argument("--wcxb", type=int, default=50, help="wcxb-dev articles (default 50)")
    args = parser.parse_args(argv)
    audit = run(args.wcxb)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(asdict(audit), indent=1) + "\n", encoding="utf-8")
    print(
        f"audited {audit.audited} pages in {len(THEMES)} themes; {len(audit.violations)} with"
        f" violations; {len(audit.originals)} stayed the original"
    )
    for rule, nodes in audit.counts.most_common():
        print(f"  {rule}: {nodes} nodes")
    for name in audit.originals[: len(audit.originals) // len(THEMES)]:
        print(f"  original: {name.split(' ', 1)[1]}")
    print(f"report: {args.json}")
    return 1 if audit.violations else 0


if __name__ == "__main__":
    sys.exit(main())
