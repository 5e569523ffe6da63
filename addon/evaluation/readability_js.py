"""Readability.js, Firefox Reader View's extraction, run by node as a peer of `plainview eval`.

One node process (scripts/readability-peer.mjs) serves every page of a run,
one JSON line in and one out per page. It needs a source checkout: node, the
script and the `@mozilla/readability` and `jsdom` packages that `npm ci`
installs from package-lock.json; the wheel ships none of them.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "readability-peer.mjs"
NODE_MODULES = ROOT / "node_modules"
PACKAGES = ("@mozilla/readability", "jsdom")
INSTALL_HINT = "npm ci in a source checkout (node 20.19 or newer)"
# Seconds node gets to finish once its input is closed.
EXIT_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class JsArticle:
    """What Readability.js found: its title and the article's HTML ("" for none)."""

    title: str
    content: str


@dataclass(frozen=True, slots=True)
class JsFailure:
    """Why Readability.js (or jsdom) threw on one page."""

    reason: str


class PeerFailed(RuntimeError):
    """The node process stopped or answered something that is not an answer."""


def missing() -> list[str]:
    """Name what running Readability.js needs and does not find."""
    needs = [] if shutil.which("node") else ["node"]
    if not SCRIPT.is_file():
        needs.append(SCRIPT.name)
    return needs + [
        name for name in PACKAGES if not (NODE_MODULES / name / "package.json").is_file()
    ]


def version() -> str:
    """Return the installed Readability.js version."""
    manifest = json.loads((NODE_MODULES / PACKAGES[0] / "package.json").read_text("utf-8"))
    return str(manifest["version"])


@dataclass(frozen=True, slots=True)
class _Node:
    """A running node process and its two pipes."""

    process: subprocess.Popen[bytes]
    stdin: IO[bytes]
    stdout: IO[bytes]


class ReadabilityJs:
    """One node process that runs Readability.js on page after page, started on first use."""

    def __init__(self, script: Path = SCRIPT) -> None:
        self._script = script
        self._node: _Node | None = None

    def extract(self, html: bytes, url: str | None) -> JsArticle | JsFailure:
        """Run Readability.js on one page, its bytes read as UTF-8."""
        node = self._started()
        request = json.dumps({"html": html.decode("utf-8", "replace"), "url": url})
        try:
            node.stdin.write(request.encode("utf-8") + b"\n")
            node.stdin.flush()
        except BrokenPipeError:
            raise self._failed(node, "node stopped reading") from None
        line = node.stdout.readline()
        if not line:
            raise self._failed(node, "node stopped before answering")
        return _answer(line)

    def close(self) -> None:
        """Let node finish and end, then drop its streams."""
        if self._node is None:
            return
        node, self._node = self._node, None
        node.stdin.close()
        node.process.wait(timeout=EXIT_TIMEOUT)
        node.stdout.close()

    def _started(self) -> _Node:
        """Return the node process, starting it on the first page."""
        if self._node is None:
            executable = shutil.which("node")
            if executable is None:
                raise PeerFailed("node is not on PATH")
            # Node's standard error is ours: the script prints nothing there unless
            # it fails, and then its stack trace is what the user needs to see.
            process = subprocess.Popen(
                [executable, str(self._script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
            if process.stdin is None or process.stdout is None:
                raise PeerFailed("node started without pipes")
            self._node = _Node(process, process.stdin, process.stdout)
        return self._node

    def _failed(self, node: _Node, what: str) -> PeerFailed:
        """Forget a node that stopped and describe its end."""
        self._node = None
        status = node.process.wait(timeout=EXIT_TIMEOUT)
        node.stdout.close()
        # The request node did not take may still sit in the buffer, and closing tries
        # to send it: the pipe's break is the failure this reports, not a second one.
        with contextlib.suppress(BrokenPipeError):
            node.stdin.close()
        return PeerFailed(f"{what} (exit status {status}; its standard error is above)")


def _answer(line: bytes) -> JsArticle | JsFailure:
    """Read one answer line of node's as an article or a failure."""
    try:
        answer = json.loads(line)
    except ValueError:
        raise PeerFailed(f"node answered with no JSON: {line[:200]!r}") from None
    if not isinstance(answer, dict):
        raise PeerFailed(f"node answered with no object: {line[:200]!r}")
    if isinstance(answer.get("error"), str):
        return JsFailure(answer["error"])
    title, content = answer.get("title"), answer.get("content")
    if not isinstance(title, str) or not isinstance(content, str):
        raise PeerFailed(f"node answered without title and content: {line[:200]!r}")
    return JsArticle(title, content)
