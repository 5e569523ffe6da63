"""`plainview proxy`: run mitmproxy's mitmdump with the Plainview addon."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from addon.siteconfig import MODES, default_config_path

ADDON_FILE = Path(__file__).resolve().parent / "plainview_addon.py"
SETTINGS_URL = "http://plainview.proxy/"

Exec = Callable[[str, list[str]], object]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of `plainview proxy`."""
    parser.add_argument(
        "--listen-host", default="127.0.0.1", metavar="HOST",
        help="address to listen on (default: %(default)s; 0.0.0.0 exposes it to the network)",
    )  # fmt: skip
    parser.add_argument(
        "--listen-port", type=_port, default=8080, metavar="PORT",
        help="port to listen on (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--config", type=Path, metavar="PATH",
        help=f"site settings file (default: {default_config_path()})",
    )  # fmt: skip
    parser.add_argument(
        "--mode", choices=MODES,
        help="mode for sites without a rule (default: the settings file's)",
    )  # fmt: skip
    parser.add_argument(
        "--set", dest="mitm_options", action="append", default=[], metavar="OPTION=VALUE",
        help="pass a mitmproxy option through, e.g. confdir=DIR; repeatable",
    )  # fmt: skip


def mitmdump_path(executable: str = sys.executable) -> str | None:
    """Return the mitmdump beside this Python (same virtualenv), else the one on PATH."""
    beside = Path(executable).parent / "mitmdump"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("mitmdump")


def mitmdump_argv(mitmdump: str, args: argparse.Namespace) -> list[str]:
    """Return the command line that runs mitmdump with the addon and the options."""
    config: Path = args.config or default_config_path()
    argv = [
        mitmdump,
        "-s", str(ADDON_FILE),
        "--listen-host", args.listen_host,
        "--listen-port", str(args.listen_port),
        # One log line per page comes from the addon; mitmdump's per-flow lines would drown it.
        "--set", "flow_detail=0",
        "--set", f"plainview_config={config.expanduser().resolve()}",
    ]  # fmt: skip
    if args.mode:
        argv += ["--set", f"plainview_mode={args.mode}"]
    for option in args.mitm_options:
        argv += ["--set", option]
    return argv


def instructions(args: argparse.Namespace) -> str:
    """Tell the user where to point the browser and how to trust the CA."""
    host = args.listen_host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    lines = [
        f"Plainview proxy listening on {host}:{args.listen_port}",
        f"  1. Set your browser's HTTP and HTTPS proxy to {shown}, port {args.listen_port}.",
        "  2. For HTTPS pages, install the CA certificate once: with the proxy set,",
        "     visit http://mitm.it and follow the steps for your system.",
        "     The CA lives in ~/.mitmproxy (or the confdir you set).",
        f"  3. Settings and recent pages: {SETTINGS_URL} (through the proxy).",
    ]
    if host in ("0.0.0.0", "::", ""):
        lines.append("  Warning: listening on every interface; others on the network can use it.")
    return "\n".join(lines)


def run(args: argparse.Namespace, *, execv: Exec = os.execv) -> int:
    """Print the instructions and replace this process with mitmdump."""
    mitmdump = mitmdump_path()
    if mitmdump is None:
        print("plainview: mitmdump not found; install mitmproxy", file=sys.stderr)
        return 1
    print(instructions(args), flush=True)
    argv = mitmdump_argv(mitmdump, args)
    try:
        execv(mitmdump, argv)
    except OSError as error:
        print(f"plainview: cannot start {mitmdump}: {error}", file=sys.stderr)
        return 1
    return 0


def _port(text: str) -> int:
    """Parse a TCP port number, for argparse."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number from 1 to 65535: {text!r}")
    return int(text)
