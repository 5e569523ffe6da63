"""`plainview proxy`: run mitmproxy's mitmdump with the Plainview addon."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from addon.core.paper.pipelines import SpecError, parse_pipeline
from addon.settings.rules import MODES, default_config_path

ADDON_FILE = Path(__file__).resolve().parents[1] / "proxy" / "mitmdump_entry.py"
SETTINGS_URL = "http://plainview.proxy/"
# The options the addon declares, with their types (addon/proxy/adapter.py, Plainview.load;
# a test keeps the two alike). mitmproxy sets them only once the addon has loaded,
# and there a value it cannot read (an option given twice, without "=", or an int
# option that is no integer) leaves all of them unset, and a misspelt name is
# ignored: the proxy would pass every page through in silence.
ADDON_OPTIONS: dict[str, type] = {
    "plainview_config": str,
    "plainview_mode": str,
    "plainview_max_bytes": int,
    "plainview_timeout": str,
    "plainview_buffer_timeout": str,
    "plainview_workers": int,
    "plainview_site_memory": bool,
    "plainview_site_memory_dir": str,
    "plainview_pipeline": str,
}
# The addon's options that a flag of `plainview proxy` sets too.
FLAG_OF = {"plainview_config": "config", "plainview_mode": "mode"}

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


def option_problem(args: argparse.Namespace) -> str:
    """Return what is wrong with the `--set` options, or "" when nothing is."""
    named: list[str] = [spec.partition("=")[0] for spec in args.mitm_options]
    for name, spec in zip(named, args.mitm_options, strict=True):
        if name.startswith("plainview_") and name not in ADDON_OPTIONS:
            return f"unknown option {name!r}; Plainview's are {', '.join(ADDON_OPTIONS)}"
        if name in ADDON_OPTIONS and named.count(name) > 1:
            return f"option {name!r} given more than once"
        flag = FLAG_OF.get(name)
        if flag is not None and getattr(args, flag) is not None:
            return f"option {name!r} and --{flag} both given; use one of them"
        if problem := _value_problem(name, spec):
            return problem
    return ""


def _value_problem(name: str, spec: str) -> str:
    """Return why mitmproxy could not read the value of one of the addon's options, or ""."""
    kind = ADDON_OPTIONS.get(name)
    if kind is None:
        return ""  # mitmproxy's own options: mitmdump itself reports a bad value
    _, equals, value = spec.partition("=")
    if not equals:
        return f"option {name!r} needs a value: {name}=VALUE"
    if kind is int and not _is_integer(value):
        return f"option {name!r} must be a whole number, not {value!r}"
    if name == "plainview_pipeline" and value.strip():
        # Checked here too: the addon's own check stops mitmdump with a traceback.
        pipeline = parse_pipeline(value)
        return f"option {name!r}: {pipeline.message}" if isinstance(pipeline, SpecError) else ""
    return ""


def _is_integer(text: str) -> bool:
    """Tell whether int() reads a text, as mitmproxy reads an int option."""
    try:
        int(text)
    except ValueError:
        return False
    return True


def mitmdump_argv(mitmdump: str, args: argparse.Namespace) -> list[str]:
    """Return the command line that runs mitmdump with the addon and the options.

    The options `--set` gives take the place of the defaults for the same options.
    """
    config: Path = args.config or default_config_path()
    own = {
        # One log line per page comes from the addon; mitmdump's per-flow lines would drown it.
        "flow_detail": "0",
        # Absolute, but a symlink stays one: the store follows it on every read and
        # write, so a link re-pointed while the proxy runs takes effect.
        "plainview_config": os.path.abspath(config.expanduser()),
        "plainview_mode": args.mode,
    }
    given = {spec.partition("=")[0] for spec in args.mitm_options}
    sets = [f"{name}={value}" for name, value in own.items() if value and name not in given]
    argv = [mitmdump, "-s", str(ADDON_FILE)]
    # mitmdump's `--set scripts=` would replace the `-s` list, Plainview with it:
    # the user's addons load after it instead.
    for option in args.mitm_options:
        name, _, value = option.partition("=")
        argv += ["-s", value] if name == "scripts" else []
    argv += ["--listen-host", args.listen_host, "--listen-port", str(args.listen_port)]
    for option in [*sets, *args.mitm_options]:
        argv += [] if option.startswith("scripts=") else ["--set", option]
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
    if problem := option_problem(args):
        print(f"plainview proxy: {problem}", file=sys.stderr)
        return 2
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
