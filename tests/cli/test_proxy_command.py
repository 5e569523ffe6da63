"""Tests for `plainview proxy`: its options, the mitmdump command line and the instructions."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from addon.cli import proxy_command


def parse(*argv: str) -> argparse.Namespace:
    """Parse `plainview proxy` options."""
    parser = argparse.ArgumentParser()
    proxy_command.add_arguments(parser)
    return parser.parse_args(argv)


def test_defaults() -> None:
    args = parse()
    assert (args.listen_host, args.listen_port, args.config, args.mode) == (
        "127.0.0.1",
        8080,
        None,
        None,
    )


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1"])
def test_bad_ports_are_refused(port: str) -> None:
    with pytest.raises(SystemExit):
        parse("--listen-port", port)


def test_bad_mode_is_refused() -> None:
    with pytest.raises(SystemExit):
        parse("--mode", "fast")


def test_mitmdump_argv_loads_the_addon_with_the_options(tmp_path: Path) -> None:
    args = parse(
        "--listen-port", "9090", "--config", str(tmp_path / "c.toml"), "--mode", "reader",
        "--set", f"confdir={tmp_path}",
    )  # fmt: skip
    argv = proxy_command.mitmdump_argv("/venv/bin/mitmdump", args)
    assert argv[:3] == ["/venv/bin/mitmdump", "-s", str(proxy_command.ADDON_FILE)]
    assert proxy_command.ADDON_FILE.is_file()
    pairs = dict(zip(argv[3::2], argv[4::2], strict=True))
    assert pairs["--listen-host"] == "127.0.0.1" and pairs["--listen-port"] == "9090"
    sets = [value for flag, value in zip(argv[3::2], argv[4::2], strict=True) if flag == "--set"]
    assert sets == [
        "flow_detail=0",
        f"plainview_config={tmp_path / 'c.toml'}",
        "plainview_mode=reader",
        f"confdir={tmp_path}",
    ]


def test_default_config_is_the_user_config_file() -> None:
    from addon.settings.rules import default_config_path

    argv = proxy_command.mitmdump_argv("mitmdump", parse())
    assert f"plainview_config={default_config_path().absolute()}" in argv
    assert not any(a.startswith("plainview_mode=") for a in argv)


def test_a_symlinked_config_is_passed_as_the_link(tmp_path: Path) -> None:
    # Issue 29 (10): resolved once at start, a re-pointed link (dotfile managers do
    # that) was ignored, and a rule saved afterwards went to the old target.
    (tmp_path / "dotfiles").mkdir()
    target = tmp_path / "dotfiles" / "plainview.toml"
    target.write_text("", encoding="utf-8")
    link = tmp_path / "config.toml"
    link.symlink_to(target)
    argv = proxy_command.mitmdump_argv("mitmdump", parse("--config", str(link)))
    assert f"plainview_config={link}" in argv


def test_mitmdump_is_found_beside_the_interpreter(tmp_path: Path) -> None:
    mitmdump = tmp_path / "mitmdump"
    mitmdump.write_text("#!/bin/sh\n")
    mitmdump.chmod(0o755)
    assert proxy_command.mitmdump_path(str(tmp_path / "python")) == str(mitmdump)


def test_run_prints_instructions_then_execs_mitmdump(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[tuple[str, list[str]]] = []

    def fake_exec(path: str, argv: list[str]) -> None:
        calls.append((path, list(argv)))

    assert proxy_command.run(parse("--listen-port", "8181"), execv=fake_exec) == 0
    out = capsys.readouterr().out
    assert "HTTP and HTTPS proxy to 127.0.0.1, port 8181" in out
    assert "http://mitm.it" in out and "~/.mitmproxy" in out
    assert "http://plainview.proxy/" in out
    assert len(calls) == 1 and calls[0][1][0] == calls[0][0]
    assert calls[0][0].endswith("mitmdump")


def test_listening_on_every_interface_warns(capsys: pytest.CaptureFixture[str]) -> None:
    text = proxy_command.instructions(parse("--listen-host", "0.0.0.0"))
    assert "Warning: listening on every interface" in text
    assert "proxy to 127.0.0.1, port 8080" in text


def test_a_failed_exec_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    def failing_exec(path: str, argv: list[str]) -> None:
        raise PermissionError("denied")

    assert proxy_command.run(parse(), execv=failing_exec) == 1
    assert "cannot start" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--set", "plainview_mod=reader"], "unknown option 'plainview_mod'"),
        (["--set", "plainview_mode=reader", "--set", "plainview_mode=auto"], "more than once"),
        (["--mode", "reader", "--set", "plainview_mode=auto"], "and --mode both given"),
        (["--config", "a.toml", "--set", "plainview_config=b.toml"], "and --config both given"),
        (["--set", "plainview_mode"], "'plainview_mode' needs a value"),
        (["--set", "plainview_max_bytes=2MB"], "must be a whole number, not '2MB'"),
        (["--set", "plainview_max_bytes="], "must be a whole number, not ''"),
        (["--set", "plainview_pipeline=vote3(danag)"], "vote3 needs at least 3 filters, has 1"),
        (["--set", "plainview_pipeline=danag,"], "'plainview_pipeline': unexpected ','"),
    ],
)
def test_options_mitmproxy_would_drop_in_silence_are_refused(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # mitmproxy sets the addon's options once it has loaded: one given twice or
    # with a value it cannot read leaves all of them unset, a misspelt one is
    # ignored, and every page passes through.
    args = parse(*argv)
    assert problem in proxy_command.option_problem(args)

    def exec_never(path: str, argv: list[str]) -> None:
        raise AssertionError("mitmdump started")

    assert proxy_command.run(args, execv=exec_never) == 2
    assert problem in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--mode", "auto", "--config", "a.toml", "--set", "plainview_timeout=3"],
        ["--set", "plainview_mode=reader", "--set", "plainview_config=b.toml"],
        ["--set", "ignore_hosts=a", "--set", "ignore_hosts=b", "--set", "flow_detail=2"],
        ["--set", "plainview_mode=", "--set", "plainview_max_bytes=1000000"],
        ["--set", "plainview_pipeline=serial(addanag-plus, r2l)"],
        ["--set", "plainview_pipeline="],
    ],
)
def test_options_given_once_are_accepted(argv: list[str]) -> None:
    assert proxy_command.option_problem(parse(*argv)) == ""


def test_options_set_through_replace_the_proxys_own(tmp_path: Path) -> None:
    args = parse(
        "--set", "flow_detail=2", "--set", f"plainview_config={tmp_path / 'b.toml'}",
        "--set", "plainview_mode=original",
    )  # fmt: skip
    argv = proxy_command.mitmdump_argv("mitmdump", args)
    sets = [value for flag, value in zip(argv[3::2], argv[4::2], strict=True) if flag == "--set"]
    assert sets == [
        "flow_detail=2",
        f"plainview_config={tmp_path / 'b.toml'}",
        "plainview_mode=original",
    ]


def test_scripts_set_through_load_beside_the_addon(tmp_path: Path) -> None:
    # `--set scripts=...` took the place of mitmdump's `-s` list: the user's addon
    # was dropped without a word. Each one now loads after Plainview's.
    args = parse(
        "--set", "scripts=/my/first.py", "--set", "flow_detail=1", "--set", "scripts=/b.py"
    )  # fmt: skip
    argv = proxy_command.mitmdump_argv("mitmdump", args)
    scripts = [value for flag, value in zip(argv[1::2], argv[2::2], strict=False) if flag == "-s"]
    assert scripts == [str(proxy_command.ADDON_FILE), "/my/first.py", "/b.py"]
    assert not any(part.startswith("scripts=") for part in argv)
    assert "flow_detail=1" in argv
