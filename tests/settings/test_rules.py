"""Tests of addon/settings/rules.py on real files: matching, errors, edits, races."""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import random
import signal
import stat
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import lxml.html
import pytest

from addon.proxy.recent import RecentPages
from addon.settings import rules as siteconfig
from addon.settings.app import SettingsApp, WebReply, WebRequest
from addon.settings.guard import site_token
from addon.settings.memory import SiteCount, SiteMemoryStore
from addon.settings.rules import (
    ConfigError,
    ConfigStore,
    ConfigWriteError,
    Limits,
    Rule,
    SiteConfig,
    SiteSettings,
    default_config_path,
    parse_config,
)

HAND_WRITTEN = """\
# My Plainview settings (hand-written)
[defaults]
mode = "auto"        # reader | original | auto
theme = "auto"       # keep the browser's choice
font_size = 100
width = 40           # narrow columns

# Always reader on the wiki.
[[rule]]
host = "wiki.example"   # the wiki
mode = "reader"

# News: keep the originals, but dark.
[[rule]]
host = ".news.example.org"  # and subdomains
path = "/blog/"
mode = "original"
theme = "dark"

# trailing remark
"""


def config_of(text: str) -> SiteConfig:
    """Parse text that must be valid."""
    config = parse_config(text)
    assert isinstance(config, SiteConfig), str(config)
    return config


def error_of(text: str, limits: Limits | None = None) -> ConfigError:
    """Parse text that must be invalid."""
    error = parse_config(text, limits=limits or Limits())
    assert isinstance(error, ConfigError), error
    return error


def rules(*lines: str) -> SiteConfig:
    """Return a config with one rule per `host [path] mode` line."""
    text = ""
    for line in lines:
        host, *rest = line.split()
        text += f'[[rule]]\nhost = "{host}"\nmode = "{rest[-1]}"\n'
        if len(rest) == 2:
            text += f'path = "{rest[0]}"\n'
    return config_of(text)


def bump_mtime(path: Path) -> None:
    """Move the file's mtime a second on, so a same-tick edit still counts as a change."""
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))


def hand_edit(path: Path, text: str) -> None:
    """Rewrite the file in place, as an editor would."""
    path.write_text(text, encoding="utf-8")
    bump_mtime(path)


# -- matching ------------------------------------------------------------------------


def test_an_exact_host_matches_that_host_only() -> None:
    config = rules("example.com reader")
    assert config.settings_for("example.com", "/").mode == "reader"
    for other in ("www.example.com", "badexample.com", "example.co", "example.com.evil"):
        assert config.settings_for(other, "/") == config.defaults


def test_a_dot_pattern_matches_the_domain_and_all_its_subdomains() -> None:
    config = rules(".example.com reader")
    for host in ("example.com", "www.example.com", "a.b.example.com"):
        assert config.settings_for(host, "/").rule_index == 0
    for other in ("badexample.com", "example.com.evil", "com"):
        assert config.settings_for(other, "/").rule_index is None


def test_case_port_and_final_dot_of_the_request_host_do_not_matter() -> None:
    config = rules("Example.COM reader")
    assert config.rules[0].host == "example.com"
    for host in ("EXAMPLE.com", "example.com:8443", "example.com.", "Example.Com.:80"):
        assert config.settings_for(host, "/").mode == "reader", host


def test_ipv6_hosts_match_with_or_without_brackets_and_port() -> None:
    config = rules("[::1] reader")
    assert config.rules[0].host == "::1"
    for host in ("[::1]:8080", "::1", "[0:0::1]", "0:0:0:0:0:0:0:1"):
        assert config.settings_for(host, "/").mode == "reader", host
    assert config.settings_for("[::2]:80", "/").rule_index is None


def test_idna_hosts_are_compared_in_punycode() -> None:
    config = rules("bücher.example reader", ".xn--caf-dma.example original")
    assert config.rules[0].host == "xn--bcher-kva.example"
    assert config.settings_for("xn--bcher-kva.example", "/").mode == "reader"
    assert config.settings_for("BÜCHER.example:443", "/").mode == "reader"
    assert config.settings_for("www.café.example", "/").mode == "original"


def test_a_path_prefix_limits_the_rule() -> None:
    config = rules("example.com /blog/ original")
    assert config.settings_for("example.com", "/blog/post?id=1").mode == "original"
    assert config.settings_for("example.com", "/blog/").mode_rule == "example.com/blog/"
    assert config.settings_for("example.com", "/blog/").mode == "original"
    for path in ("/blog", "/Blog/post", "/other/blog/", "/"):
        assert config.settings_for("example.com", path).rule_index is None, path


def test_a_non_ascii_path_prefix_matches_the_percent_encoded_request_path() -> None:
    config = rules("example.com /café/ reader")
    assert config.rules[0].path == "/caf%C3%A9/"
    assert config.settings_for("example.com", "/caf%C3%A9/menu").mode == "reader"


def test_the_last_matching_rule_wins_even_if_less_specific() -> None:
    specific_last = rules(".example.com reader", "www.example.com original")
    assert specific_last.settings_for("www.example.com", "/") == SiteSettings(
        mode="original", rule_index=1, mode_rule="www.example.com"
    )
    general_last = rules("www.example.com original", ".example.com reader")
    assert general_last.settings_for("www.example.com", "/").mode == "reader"
    assert general_last.settings_for("www.example.com", "/").rule_index == 1
    path_rule = rules("example.com /a/ original", "example.com reader")
    assert path_rule.settings_for("example.com", "/a/x").rule_index == 1


def test_unset_fields_come_from_the_defaults_not_from_earlier_rules() -> None:
    config = config_of(
        '[defaults]\ntheme = "sepia"\nfont_size = 120\n'
        '[[rule]]\nhost = ".example.com"\ntheme = "dark"\nwidth = 80\n'
        '[[rule]]\nhost = "www.example.com"\nmode = "reader"\n'
    )
    assert config.settings_for("www.example.com", "/") == SiteSettings(
        mode="reader", theme="sepia", font_size=120, width=40, rule_index=1,
        mode_rule="www.example.com",
    )  # fmt: skip
    # A rule that sets no mode leaves it, and the notice of a rule, to the defaults.
    assert config.settings_for("example.com", "/") == SiteSettings(
        mode="auto", theme="dark", font_size=120, width=80, rule_index=0
    )


def test_a_request_host_that_is_no_host_name_gets_the_defaults() -> None:
    config = rules(".example.com reader")
    for host in ("", "exa mple.com", "[::1", "a..example.com", "x" * 300 + ".example.com"):
        assert config.settings_for(host, "/") == config.defaults


# -- parsing and its errors ----------------------------------------------------------


def test_an_empty_file_and_the_template_are_the_built_in_defaults(tmp_path: Path) -> None:
    assert config_of("") == SiteConfig()
    store = ConfigStore(tmp_path / "config.toml")
    store.ensure_exists()
    assert config_of((tmp_path / "config.toml").read_text()) == SiteConfig()


def test_the_full_example_parses() -> None:
    config = config_of(HAND_WRITTEN)
    assert config.rules == (
        Rule("wiki.example", mode="reader"),
        Rule(".news.example.org", "/blog/", mode="original", theme="dark"),
    )


def test_an_error_names_file_line_and_problem() -> None:
    text = "# a\n\n[defaults]\ntheme = 'dark'\nwidth = 40\n\nmode = 'raeder'\n"
    assert str(error_of(text)) == (
        "config.toml, line 7: mode must be one of reader, original, auto (got 'raeder')"
    )
    assert str(ConfigError("config.toml", None, "file too large")) == "config.toml: file too large"


def test_font_and_line_height_come_from_the_defaults_unless_a_rule_sets_them() -> None:
    # Issue 30 (4): the reader's font family and line height, per site or everywhere.
    config = config_of(
        "[defaults]\nfont = 'sans'\nline_height = 150\n\n"
        "[[rule]]\nhost = 'a.example'\nline_height = 220\n\n"
        "[[rule]]\nhost = 'b.example'\nfont = 'serif'\n"
    )
    assert (config.defaults.font, config.defaults.line_height) == ("sans", 150)
    a, b = config.settings_for("a.example"), config.settings_for("b.example")
    assert (a.font, a.line_height) == ("sans", 220)
    assert (b.font, b.line_height) == ("serif", 150)
    assert config_of("").defaults.font == "serif"
    assert config_of("").defaults.line_height == 170


def test_font_and_line_height_are_written_and_cleared(tmp_path: Path) -> None:
    store = ConfigStore(tmp_path / "config.toml")
    store.ensure_exists()
    store.set_defaults(font="sans", line_height=200)
    store.set_rule("a.example", "reader", font="serif", line_height=130)
    config = store.current()
    assert (config.defaults.font, config.defaults.line_height) == ("sans", 200)
    assert config.rules == (Rule("a.example", None, "reader", None, None, None, "serif", 130),)
    store.set_rule("a.example", clear=("font", "line_height"))
    assert store.current().settings_for("a.example").font == "sans"
    with pytest.raises(ConfigWriteError, match="line_height must be an integer"):
        store.set_defaults(line_height=99)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("[defaults]\nmode = auto\n", 2, "not valid TOML: Invalid value at column 8"),
        ("[defaults\nmode = 'auto'\n", 1, "not valid TOML"),
        ("a = 1\na = 2\n", 2, "not valid TOML"),
        ("[defaults]\nmode = 'au", 2, "at the end of the file"),
        ("[defaults]\nfont_size = '120'\n", 2, "font_size must be an integer from 50 to 300"),
        ("[defaults]\nfont_size = 120.0\n", 2, "(got 120.0)"),
        (
            "[defaults]\nwidth = true\n",
            2,
            "width must be an integer from 20 to 120 (got a boolean)",
        ),
        ("[defaults]\nwidth = 121\n", 2, "(got 121)"),
        ("[defaults]\ntheme = ['dark']\n", 2, "theme must be one of auto, light, dark, sepia"),
        ("[defaults]\nfont = 'comic'\n", 2, "font must be one of serif, sans (got 'comic')"),
        ("[defaults]\nline_height = 300\n", 2, "line_height must be an integer from 120 to 250"),
        ("[[rule]]\nhost = 'a'\nfont = 1\n", 3, "rule 1: font must be one of serif, sans"),
        ("\n[defaults]\nmode = 'auto'\nmoed = 'reader'\n", 4, "unknown key 'moed' in [defaults]"),
        ("defaults = 'reader'\n", 1, "defaults must be a table"),
        ("[rules]\nhost = 'a'\n", 1, "unknown key 'rules' in the file"),
        ("[rule]\nhost = 'a'\n", 1, "rule must be an array of tables, [[rule]]"),
        ("[[rule]]\nhost = 'a'\n\n[[rule]]\nmode = 'reader'\n", 4, "rule 2: host is missing"),
        ("[[rule]]\nhost = 'a'\nhots = 'b'\n", 3, "rule 1: unknown key 'hots' in [[rule]]"),
        ("[[rule]]\nhost = '*.example.com'\n", 2, "write '.example.com' instead"),
        ("[[rule]]\nhost = 'a b'\n", 2, "host must be a host name"),
        ("[[rule]]\nhost = ''\n", 2, "host must be a host name"),
        ("[[rule]]\nhost = 'a'\npath = 'blog/'\n", 3, "rule 1: path must start with '/'"),
        ("[[rule]]\nhost = 'a'\npath = '/a b'\n", 3, "no spaces or control characters"),
        ("[[rule]]\nhost = 'a'\nmode = 'raeder'\n", 3, "rule 1: mode must be one of"),
        ("rule = [\n  {host = 'a'},\n  {host = 'b', width = 1},\n]\n", 3, "rule 2: width"),
        ("[[rule]]\nhost = 'a'\n[rule.extra]\nx = 1\n", 3, "unknown key 'extra'"),
    ],
)
def test_errors_name_the_line_of_the_offending_item(text: str, line: int, message: str) -> None:
    error = error_of(text)
    assert error.line == line, str(error)
    assert message in error.message, str(error)


# -- hostile files -------------------------------------------------------------------


def test_a_truncated_file_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(HAND_WRITTEN.encode()[: HAND_WRITTEN.index('"/blog/') + 4])
    store = ConfigStore(path)
    assert store.current() == SiteConfig()
    assert store.error is not None
    assert "not valid TOML" in store.error.message
    assert store.error.line == 16


def test_a_file_over_the_size_limit_is_rejected_unparsed(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"# " + b"x" * (2 * 1024 * 1024) + b"\n")
    store = ConfigStore(path)
    assert store.current() == SiteConfig()
    assert store.error is not None
    assert store.error.message == "file too large (over 1048576 bytes)"
    assert "file too large" in error_of("#" * 2_000_000).message


def test_binary_files_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'[defaults]\nmode = "auto"\n\xff\xfe\x00\x80binary')
    store = ConfigStore(path)
    store.current()
    assert store.error == ConfigError(str(path), 3, "not UTF-8 text (byte 0xff at offset 25)")
    path.write_bytes(bytes(range(0, 128)) * 10)  # valid UTF-8, control characters
    bump_mtime(path)
    store.current()
    assert store.error is not None
    assert "not valid TOML" in store.error.message


def test_deep_nesting_is_rejected() -> None:
    tables = "[" + ".".join(["a"] * 200) + "]\nx = 1\n"
    assert "unknown key 'a' in the file" in error_of(tables).message
    deep_defaults = "[defaults." + ".".join(["a"] * 200) + "]\n"
    assert "unknown key 'a' in [defaults]" in error_of(deep_defaults).message
    arrays = "[defaults]\nmode = " + "[" * 5000 + "]" * 5000 + "\n"
    assert error_of(arrays).message == "not valid TOML: values nested too deeply"
    inline = "[defaults]\nmode = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n"
    assert error_of(inline).message == "not valid TOML: values nested too deeply"
    dotted = ".".join(["a"] * 50_000) + " = 1\n"
    assert error_of(dotted).message == "line 1 has more than 300 dots"


def test_huge_values_and_wrong_types_are_rejected() -> None:
    array = "[defaults]\nmode = [" + ", ".join(["1"] * 100_000) + "]\n"
    assert error_of(array).message == "mode must be one of reader, original, auto (got an array)"
    digits = "[defaults]\nfont_size = " + "9" * 5000 + "\n"
    assert "not valid TOML" in error_of(digits).message
    hexadecimal = "[defaults]\nfont_size = 0x" + "f" * 5000 + "\n"
    assert "(got an integer out of range)" in error_of(hexadecimal).message
    date = "[defaults]\nwidth = 1979-05-27\n"
    assert error_of(date).message == "width must be an integer from 20 to 120 (got a date)"
    long_text = "[defaults]\ntheme = '" + "x" * 10_000 + "'\n"
    assert len(error_of(long_text).message) < 120


def test_too_many_rules_are_rejected_at_the_first_one_too_many() -> None:
    text = "".join(f"[[rule]]\nhost = 'h{i}.example'\n" for i in range(5))
    error = error_of(text, Limits(max_rules=3))
    assert error.message == "too many rules (5; at most 3)"
    assert error.line == 7
    assert len(config_of(text).rules) == 5


def test_a_fifo_or_a_directory_in_the_files_place_is_an_error(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    store = ConfigStore(fifo)
    assert store.current() == SiteConfig()
    assert store.error == ConfigError(str(fifo), None, "not a regular file")
    directory = tmp_path / "dir.toml"
    directory.mkdir()
    store = ConfigStore(directory)
    store.current()
    assert store.error is not None
    assert "cannot read the file" in store.error.message


# -- the store: reading ----------------------------------------------------------------


def test_the_default_path_is_in_the_user_config_directory() -> None:
    path = default_config_path()
    assert path.name == "config.toml"
    assert path.parent.name == "plainview"


def test_no_file_means_the_defaults_and_current_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    store = ConfigStore(path)
    assert store.current() == SiteConfig()
    assert store.error is None
    assert not path.exists()


def test_ensure_exists_writes_the_commented_template_once(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "config.toml"
    store = ConfigStore(path)
    store.ensure_exists()
    text = path.read_text()
    assert "# Plainview site settings." in text
    assert "the LAST one in this file wins" in text
    assert '# host = ".news.example.org"' in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    hand_edit(path, HAND_WRITTEN)
    store.ensure_exists()
    assert path.read_text() == HAND_WRITTEN


def test_a_hand_edit_is_picked_up_without_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    store = ConfigStore(path)
    store.ensure_exists()
    assert store.current().rules == ()
    hand_edit(path, HAND_WRITTEN)
    assert len(store.current().rules) == 2
    assert store.current().settings_for("wiki.example", "/").mode == "reader"


def test_an_unchanged_stamp_means_no_reread(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[defaults]\nmode = 'reader'\n")
    store = ConfigStore(path)
    assert store.current().defaults.mode == "reader"
    info = path.stat()
    path.write_text("[defaults]\nmode = 'invalid'\n"[: info.st_size])  # same size, same inode
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert store.current().defaults.mode == "reader"
    assert store.error is None
    bump_mtime(path)
    assert store.current().defaults.mode == "reader"
    assert store.error is not None


def test_a_bad_hand_edit_keeps_the_last_good_config_until_fixed(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, HAND_WRITTEN)
    store = ConfigStore(path)
    good = store.current()
    hand_edit(path, HAND_WRITTEN.replace('mode = "reader"', 'mode = "raeder"'))
    assert store.current() == good
    assert store.error == ConfigError(
        str(path), 11, "rule 1: mode must be one of reader, original, auto (got 'raeder')"
    )
    hand_edit(path, HAND_WRITTEN.replace('mode = "reader"', 'mode = "auto"'))
    assert store.current().rules[0].mode == "auto"
    assert store.error is None


def test_a_deleted_file_means_the_defaults_again(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, HAND_WRITTEN)
    store = ConfigStore(path)
    assert len(store.current().rules) == 2
    path.unlink()
    assert store.current() == SiteConfig()
    assert store.error is None


# -- the store: writing ----------------------------------------------------------------


def comment_lines(text: str) -> list[str]:
    """Return the comments of a TOML text (whole-line and end-of-line)."""
    return [line[line.index("#") :] for line in text.splitlines() if "#" in line]


def test_set_rule_appends_then_updates_the_last_rule_of_that_host_and_path(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.toml"
    store = ConfigStore(path)
    store.set_rule("example.com", "reader")
    store.set_rule("example.com", "original", "/news/")
    store.set_rule("example.com", "original", "/news/")  # no change: no second rule
    config = store.set_rule("Example.COM", theme="dark", font_size=150)
    assert config == store.current()
    assert config.rules == (
        Rule("example.com", mode="reader", theme="dark", font_size=150),
        Rule("example.com", "/news/", mode="original"),
    )
    config = store.set_rule("example.com", "auto", clear=("theme", "font_size"))
    assert config.rules[0] == Rule("example.com", mode="auto")
    assert "# Plainview site settings." in path.read_text()  # created from the template


def test_set_rule_updates_the_last_of_two_same_rules(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, "[[rule]]\nhost = 'a.example'\n\n[[rule]]\nhost = 'a.example'\n")
    config = ConfigStore(path).set_rule("a.example", "reader")
    assert config.rules == (Rule("a.example"), Rule("a.example", mode="reader"))


def test_writes_keep_every_comment(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, HAND_WRITTEN)
    store = ConfigStore(path)
    store.set_rule("wiki.example", "original", width=60)
    store.set_rule("new.example", "reader")
    store.set_defaults(mode="reader", theme="light", font_size=110)
    text = path.read_text()
    assert comment_lines(text) == comment_lines(HAND_WRITTEN)
    assert 'host = "wiki.example"   # the wiki' in text
    assert 'theme = "light"       # keep the browser\'s choice' in text
    assert text.index("width = 60") < text.index("# News: keep the originals")
    config = config_of(text)
    assert config.defaults == SiteSettings(mode="reader", theme="light", font_size=110)
    assert config.rules[0] == Rule("wiki.example", mode="original", width=60)
    assert config.rules[2] == Rule("new.example", mode="reader")


def test_remove_rule_keeps_the_comments_around_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, HAND_WRITTEN)
    store = ConfigStore(path)
    config = store.remove_rule(0)
    assert config.rules == (Rule(".news.example.org", "/blog/", mode="original", theme="dark"),)
    text = path.read_text()
    assert "# News: keep the originals, but dark." in text
    assert "# Always reader on the wiki." in text
    assert text.index("# News: keep") < text.index("[[rule]]")
    assert comment_lines(text) == [c for c in comment_lines(HAND_WRITTEN) if c != "# the wiki"]
    store.remove_rule(0)
    assert config_of(path.read_text()) == SiteConfig()
    assert "# trailing remark" in path.read_text()
    store.set_rule("again.example", "reader")
    assert config_of(path.read_text()).rules == (Rule("again.example", mode="reader"),)


def test_remove_rule_refuses_a_wrong_index_or_a_rule_that_changed(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, HAND_WRITTEN)
    store = ConfigStore(path)
    shown = store.current().rules[1]
    with pytest.raises(ConfigWriteError, match="there is no rule 3; the file has 2 rules"):
        store.remove_rule(2)
    with pytest.raises(ConfigWriteError, match="there is no rule 0"):
        store.remove_rule(-1)
    hand_edit(path, HAND_WRITTEN.replace("/blog/", "/posts/"))
    with pytest.raises(ConfigWriteError, match="rule 2 changed in the file meanwhile"):
        store.remove_rule(1, expect=shown)
    assert len(store.current().rules) == 2
    store.remove_rule(1, expect=store.current().rules[1])
    assert len(store.current().rules) == 1


def test_inline_table_rules_are_edited_in_place(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, "rule = [\n  {host = 'a.example'},  # first\n  {host = 'b.example'},\n]\n")
    store = ConfigStore(path)
    store.set_rule("a.example", "reader")
    store.set_rule("c.example", "original")
    store.remove_rule(1)
    text = path.read_text()
    assert "# first" in text
    assert config_of(text).rules == (
        Rule("a.example", mode="reader"),
        Rule("c.example", mode="original"),
    )


def test_set_defaults_adds_a_missing_defaults_table(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, "# only rules\n[[rule]]\nhost = 'a.example'\n")
    config = ConfigStore(path).set_defaults(width=90)
    assert config.defaults == SiteSettings(width=90)
    assert path.read_text().startswith("# only rules\n[[rule]]\n")


def test_invalid_changes_are_refused_and_the_file_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    hand_edit(path, HAND_WRITTEN)
    store = ConfigStore(path, limits=Limits(max_rules=2))
    refused: dict[str, Callable[[], object]] = {
        "host must be a host name": lambda: store.set_rule("a b.example", "reader"),
        "write '.example.com' instead": lambda: store.set_rule("*.example.com", "reader"),
        "path must start with '/'": lambda: store.set_rule("a.example", "reader", "news"),
        "mode must be one of": lambda: store.set_rule("a.example", "raeder"),  # type: ignore[arg-type]
        "font_size must be an integer from 50 to 300 \\(got 18\\)": lambda: store.set_defaults(
            font_size=18
        ),
        "cannot clear colour": lambda: store.set_rule("a.example", clear=("colour",)),  # type: ignore[arg-type]
        "not saved: too many rules \\(3; at most 2\\)": lambda: store.set_rule("c.example"),
    }
    for message, change in refused.items():
        with pytest.raises(ConfigWriteError, match=message):
            change()
        assert path.read_text() == HAND_WRITTEN
    assert store.error is None


def test_a_broken_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    broken = HAND_WRITTEN.replace('theme = "dark"', 'theme = "blue"')
    hand_edit(path, broken)
    store = ConfigStore(path)
    with pytest.raises(ConfigWriteError) as refused:
        store.set_rule("a.example", "reader")
    assert refused.value.error == ConfigError(
        str(path), 18, "rule 2: theme must be one of auto, light, dark, sepia (got 'blue')"
    )
    assert store.error == refused.value.error
    assert path.read_text() == broken
    path.write_bytes(b"\xff" * 10)
    with pytest.raises(ConfigWriteError, match="not UTF-8"):
        store.set_defaults(mode="reader")
    assert path.read_bytes() == b"\xff" * 10


def test_a_write_keeps_the_file_mode_and_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "plainview.toml"
    real.parent.mkdir()
    hand_edit(real, HAND_WRITTEN)
    real.chmod(0o640)
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    ConfigStore(link).set_rule("a.example", "reader")
    assert link.is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert config_of(real.read_text()).rules[-1] == Rule("a.example", mode="reader")
    assert sorted(p.name for p in real.parent.iterdir()) == ["plainview.toml"]


def test_a_symlink_re_pointed_while_running_is_read_and_written_anew(tmp_path: Path) -> None:
    # Issue 29 (10): a dotfile manager re-points the link; the running store must
    # read the new target and save there, not in the old one.
    old, new = tmp_path / "old.toml", tmp_path / "new.toml"
    hand_edit(old, HAND_WRITTEN)
    hand_edit(new, '[[rule]]\nhost = "new.example"\nmode = "original"\n')
    link = tmp_path / "config.toml"
    link.symlink_to(old)
    store = ConfigStore(link)
    assert store.current().rules[-1].host != "new.example"
    link.unlink()
    link.symlink_to(new)
    assert store.current().rules[-1] == Rule("new.example", mode="original")
    store.set_rule("a.example", "reader")
    assert link.is_symlink()
    assert config_of(new.read_text()).rules[-1] == Rule("a.example", mode="reader")
    assert "a.example" not in old.read_text()


def test_a_write_keeps_a_hand_edit_made_since_the_last_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    store = ConfigStore(path)
    store.ensure_exists()
    assert store.current().rules == ()
    with path.open("a") as file:
        file.write('\n[[rule]]\nhost = "by-hand.example"\n')  # no mtime bump: not read yet
    config = store.set_rule("by-store.example", "reader")
    assert [rule.host for rule in config.rules] == ["by-hand.example", "by-store.example"]


# -- concurrency -----------------------------------------------------------------------


def test_the_file_is_never_seen_half_written(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    store = ConfigStore(path)
    store.ensure_exists()
    done = threading.Event()
    problems: list[str] = []
    seen: set[int] = set()

    def read_repeatedly() -> None:
        last = 0
        while not done.is_set():
            text = path.read_bytes().decode("utf-8")
            config = parse_config(text)
            if not isinstance(config, SiteConfig) or not text.startswith("# Plainview"):
                problems.append(f"{config}: {text[:80]!r}")
            elif len(config.rules) < last:
                problems.append(f"rules went from {last} to {len(config.rules)}")
            else:
                last = len(config.rules)
                seen.add(last)

    reader = threading.Thread(target=read_repeatedly)
    reader.start()
    try:
        for i in range(60):
            store.set_rule(f"host{i}.example", "reader", theme="dark", width=60)
    finally:
        done.set()
        reader.join()
    assert problems == []
    assert len(seen) > 1  # the reader saw the file between writes
    assert len(store.current().rules) == 60


def add_rules(path: str, prefix: str, count: int, barrier: threading.Barrier) -> None:
    """Add `count` rules from a separate process, starting with the other writer."""
    store = ConfigStore(Path(path))
    barrier.wait()
    for i in range(count):
        store.set_rule(f"{prefix}{i}.example", "reader")


def test_racing_writer_processes_lose_no_rule(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    ConfigStore(path).ensure_exists()
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    writers = [
        context.Process(target=add_rules, args=(str(path), prefix, 50, barrier))
        for prefix in ("left", "right")
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert [writer.exitcode for writer in writers] == [0, 0]
    hosts = {rule.host for rule in config_of(path.read_text()).rules}
    expected = {f"{prefix}{i}.example" for prefix in ("left", "right") for i in range(50)}
    assert hosts == expected
    assert "# Plainview site settings." in path.read_text()


# --- Faults injected into the site config and the settings page, and what must survive them

SECRET = "s" * 43
SETTINGS_ORIGIN = {"origin": "http://plainview.proxy", "sec-fetch-site": "same-origin"}
GOOD = """\
# Hand-written settings.
[defaults]
theme = "dark"   # easier on the eyes

# The wiki always in the reader view.
[[rule]]
host = "wiki.example"
mode = "reader"
"""
GOOD_CONFIG = parse_config(GOOD)


def edit_in_place(path: Path, text: str | bytes) -> None:
    """Save the file the way an editor does in place, and move its mtime on."""
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))


def save_by_rename(path: Path, text: str) -> None:
    """Save the file the way most editors do: write a sibling, then rename it over."""
    sibling = path.with_name(path.name + ".swp")
    sibling.write_text(text)
    os.replace(sibling, path)


def rules_in(path: Path) -> dict[str, str | None]:
    """Return each rule's host and mode as the file on disk has them."""
    config = parse_config(path.read_text())
    assert isinstance(config, SiteConfig), str(config)
    return {rule.host: rule.mode for rule in config.rules}


def temporaries(path: Path) -> list[str]:
    """Return the names of the store's temporary files left beside the config."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".tmp"))


def post(app: SettingsApp, path: str, form: dict[str, str], headers: dict[str, str]) -> WebReply:
    """POST a urlencoded form to the settings app."""
    return app.handle(WebRequest("POST", "http", path, headers, urlencode(form).encode()))


@pytest.fixture
def store(tmp_path: Path) -> ConfigStore:
    """Return a store over a hand-written config with one rule."""
    path = tmp_path / "config.toml"
    edit_in_place(path, GOOD)
    return ConfigStore(path)


@pytest.fixture
def app(store: ConfigStore) -> SettingsApp:
    """Return the settings app over the store."""
    return SettingsApp(store, RecentPages(), SECRET)


# -- racing writers ----------------------------------------------------------------------

TOGGLE_THREADS, TOGGLES_EACH = 6, 15
FORM_THREADS, FORMS_EACH = 2, 5
WRITER_PROCESSES, WRITES_EACH = 2, 15


def toggle_many(app: SettingsApp, thread: int, start: threading.Barrier) -> None:
    """Toggle TOGGLES_EACH sites from reader pages, as their toolbar buttons do."""
    start.wait()
    for i in range(TOGGLES_EACH):
        host = f"t{thread}-{i}.example"
        form = {"token": site_token(SECRET, host), "url": f"https://{host}/a", "mode": "original"}
        headers = {"origin": f"https://{host}", "sec-fetch-site": "cross-site"}
        reply = post(app, "/toggle", form, headers)
        assert reply.status == 200, reply.body[:300]  # what it did, and the undo


def add_many_by_form(app: SettingsApp, thread: int, start: threading.Barrier) -> None:
    """Add FORMS_EACH rules through the settings page's form."""
    start.wait()
    for i in range(FORMS_EACH):
        form = {"token": SECRET, "host": f"f{thread}-{i}.example", "mode": "reader"}
        assert post(app, "/rules", form, SETTINGS_ORIGIN).status == 303


def write_many(path: str, process: int, start: threading.Barrier) -> None:
    """Add WRITES_EACH rules from another process with its own store."""
    store = ConfigStore(Path(path))
    start.wait()
    for i in range(WRITES_EACH):
        store.set_rule(f"p{process}-{i}.example", "auto")


def read_repeatedly(
    path: Path, done: threading.Event, seen: list[int], problems: list[str]
) -> None:
    """Parse the file over and over until done; note any version that is not whole."""
    while not done.is_set():
        text = path.read_text()
        config = parse_config(text)
        if not isinstance(config, SiteConfig) or not text.startswith("# Hand-written"):
            problems.append(f"{config}: {text[:60]!r}")
        else:
            seen.append(len(config.rules))


def hosts(prefix: str, writers: int, each: int, mode: str) -> dict[str, str | None]:
    """Return the rules `writers` writers of `each` rules each have written."""
    return {f"{prefix}{w}-{i}.example": mode for w in range(writers) for i in range(each)}


def test_racing_toggles_forms_and_processes_lose_no_rule(
    app: SettingsApp, store: ConfigStore
) -> None:
    context = multiprocessing.get_context("fork")
    process_start = context.Barrier(WRITER_PROCESSES + 1)
    thread_start = threading.Barrier(TOGGLE_THREADS + FORM_THREADS)
    done = threading.Event()
    seen: list[int] = []
    problems: list[str] = []
    reader = threading.Thread(target=read_repeatedly, args=(store.path, done, seen, problems))
    writers = [
        context.Process(target=write_many, args=(str(store.path), n, process_start))
        for n in range(WRITER_PROCESSES)
    ]
    threads = [
        threading.Thread(target=toggle_many, args=(app, n, thread_start))
        for n in range(TOGGLE_THREADS)
    ] + [
        threading.Thread(target=add_many_by_form, args=(app, n, thread_start))
        for n in range(FORM_THREADS)
    ]
    for writer in writers:  # forked before any thread of this test starts
        writer.start()
    reader.start()
    process_start.wait()
    for thread in threads:
        thread.start()
    for worker in [*threads, *writers]:
        worker.join()
    done.set()
    reader.join()
    assert [writer.exitcode for writer in writers] == [0] * WRITER_PROCESSES
    assert problems == []
    assert len(set(seen)) > 1  # the reader saw the file between writes
    expected = {"wiki.example": "reader"}
    expected |= hosts("t", TOGGLE_THREADS, TOGGLES_EACH, "original")
    expected |= hosts("f", FORM_THREADS, FORMS_EACH, "reader")
    expected |= hosts("p", WRITER_PROCESSES, WRITES_EACH, "auto")
    assert rules_in(store.path) == expected
    text = store.path.read_text()
    assert "# The wiki always in the reader view." in text and "# easier on the eyes" in text
    assert temporaries(store.path) == []


# -- hand edits saved while the store writes ------------------------------------------------

SAVES = {"by rename": save_by_rename, "in place": hand_edit}


EditHook = Callable[..., list[int]]


@pytest.fixture
def edit_during_writes(monkeypatch: pytest.MonkeyPatch) -> EditHook:
    """Return a function that makes a hand edit land after the store's read, before its save."""

    def install(edit: Callable[[], None], times: int = 1) -> list[int]:
        calls: list[int] = []
        real = siteconfig._edited

        # The store edits the text it read here, under its lock, then saves it.
        def edited_after_a_hand_edit(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            if len(calls) <= times:
                edit()
            return real(*args, **kwargs)

        monkeypatch.setattr(siteconfig, "_edited", edited_after_a_hand_edit)
        return calls

    return install


@pytest.mark.parametrize("save", SAVES.values(), ids=SAVES.keys())
def test_a_hand_edit_saved_during_a_write_is_kept(
    store: ConfigStore,
    edit_during_writes: EditHook,
    save: Callable[[Path, str], None],
) -> None:
    by_hand = GOOD + '\n[[rule]]\nhost = "by-hand.example"\nmode = "original"\n'
    calls = edit_during_writes(lambda: save(store.path, by_hand))
    store.set_rule("by-store.example", "reader")
    assert len(calls) == 2  # the store saw the file change and made its change again
    assert rules_in(store.path) == {
        "wiki.example": "reader",
        "by-hand.example": "original",
        "by-store.example": "reader",
    }
    assert "# The wiki always in the reader view." in store.path.read_text()
    assert temporaries(store.path) == []


def test_a_file_that_keeps_changing_is_left_to_the_editor(
    store: ConfigStore, edit_during_writes: EditHook
) -> None:
    versions = iter(range(1000))

    def another_hand_edit() -> None:
        save_by_rename(store.path, GOOD + f"# saved by hand, version {next(versions)}\n")

    calls = edit_during_writes(another_hand_edit, times=1000)
    with pytest.raises(ConfigWriteError, match="kept changing while it was being saved"):
        store.set_rule("by-store.example", "reader")
    assert len(calls) == siteconfig._SAVE_ATTEMPTS
    assert store.path.read_text().endswith(f"version {siteconfig._SAVE_ATTEMPTS - 1}\n")
    assert temporaries(store.path) == []


# -- writers killed in the middle of a save ----------------------------------------------------

KILLS = 8


def write_until_killed(path: str, round_: int, confirmed: Connection) -> None:
    """Add rules forever, reporting each one once its save has returned."""
    store = ConfigStore(Path(path))
    for i in range(10_000):
        store.set_rule(f"k{round_}-{i}.example", "reader")
        confirmed.send(f"k{round_}-{i}.example")


def test_a_writer_killed_mid_save_leaves_a_whole_file(store: ConfigStore) -> None:
    context = multiprocessing.get_context("fork")
    rng = random.Random(4)
    saved: set[str] = set()
    for round_ in range(KILLS):
        receive, send = context.Pipe(duplex=False)
        writer = context.Process(target=write_until_killed, args=(str(store.path), round_, send))
        writer.start()
        send.close()
        receive.poll(30)  # let it save at least once, then kill it at a random moment
        threading.Event().wait(rng.uniform(0.0, 0.2))
        assert writer.pid is not None
        os.kill(writer.pid, signal.SIGKILL)
        writer.join()
        with receive, contextlib.suppress(EOFError):  # EOF: everything sent has been read
            while receive.poll():
                saved.add(receive.recv())
        on_disk = rules_in(store.path)  # parses: the old or the new file, never a mix
        assert saved <= on_disk.keys()
    assert len(saved) >= KILLS
    # The lock died with its holder: the next writer is not blocked.
    store.set_rule("after.example", "original")
    assert rules_in(store.path)["after.example"] == "original"
    # A killed save may leave its temporary file behind, never more than one per kill.
    assert len(temporaries(store.path)) <= KILLS


# -- failing disks -------------------------------------------------------------------------------


def fail_with(code: int) -> Callable[..., None]:
    """Return a function that raises the OSError of `code`."""

    def fail(*args: object) -> None:
        raise OSError(code, os.strerror(code))

    return fail


DISK_FAULTS = {
    "no space while writing": ("fsync", errno.ENOSPC),
    "I/O error while writing": ("fsync", errno.EIO),
    "rename refused": ("replace", errno.EACCES),
    "read-only file system": ("replace", errno.EROFS),
}


@pytest.mark.parametrize("fault", DISK_FAULTS.values(), ids=DISK_FAULTS.keys())
def test_a_failed_save_changes_nothing(
    store: ConfigStore, monkeypatch: pytest.MonkeyPatch, fault: tuple[str, int]
) -> None:
    name, code = fault
    before = store.path.read_bytes()
    assert store.current() == GOOD_CONFIG
    monkeypatch.setattr(siteconfig.os, name, fail_with(code))
    with pytest.raises(ConfigWriteError, match=os.strerror(code)) as refused:
        store.set_rule("new.example", "reader")
    assert str(refused.value).startswith(f"{store.path}: cannot write the file")
    monkeypatch.undo()
    assert store.path.read_bytes() == before
    assert store.current() == GOOD_CONFIG and store.error is None
    assert temporaries(store.path) == []


def test_a_directory_that_cannot_be_synced_does_not_undo_a_save(
    store: ConfigStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(siteconfig, "_fsync_directory", fail_with(errno.EINVAL))
    config = store.set_rule("new.example", "reader")
    assert config.rules[-1] == Rule("new.example", mode="reader")
    assert rules_in(store.path)["new.example"] == "reader"
    assert store.current() == config and store.error is None


# -- hostile files -----------------------------------------------------------------------------

DEEP = "[defaults]\nmode = " + "[" * 5000 + "]" * 5000 + "\n"
MANY_RULES = "".join(f"[[rule]]\nhost = 'h{i}.example'\n" for i in range(10_001))
# (file content, line named in the message or None, part of the message)
HOSTILE = {
    "truncated in a string": (b'[defaults]\nmode = "rea', 2, "not valid TOML"),
    "truncated in a header": (b"[[rule]]\nhost = 'a.example'\n[[ru", 3, "not valid TOML"),
    "NUL byte": (b'[defaults]\nmode = "reader"\x00\n', 2, "not valid TOML"),
    "UTF-16": ('[defaults]\nmode = "reader"\n'.encode("utf-16"), 1, "not UTF-8 text"),
    "Latin-1 comment": (b"# caf\xe9\n[defaults]\n", 1, "not UTF-8 text"),
    "random bytes": (b"\xff" + random.Random(1).randbytes(4096), 1, "not UTF-8 text"),
    "2 MiB of comment": (b"#" * (2 * 1024 * 1024), None, "file too large"),
    "5,000 nested arrays": (DEEP.encode(), None, "nested too deeply"),
    "400 dots in a key": (("a." * 400 + "b = 1\n").encode(), None, "more than 300 dots"),
    "10,001 rules": (MANY_RULES.encode(), None, "too many rules"),
    "duplicate key": (b'[defaults]\nmode = "reader"\nmode = "auto"\n', 3, "not valid TOML"),
    "text for a number": (b'[defaults]\nfont_size = "big"\n', 2, "font_size must be an integer"),
    "number out of range": (b"[defaults]\nwidth = 100000\n", 2, "width must be an integer"),
    "number for a host": (b"[[rule]]\nhost = 42\n", 2, "host must be a host name"),
    "URL for a host": (b"[[rule]]\nhost = 'https://a.example/'\n", 2, "host must be a host name"),
    "tab in a path": (b"[[rule]]\nhost = 'a.example'\npath = \"/a\\tb\"\n", 3, "path must start"),
    "table for a mode": (b"[[rule]]\nhost = 'a.example'\nmode = {x = 1}\n", 3, "mode must be"),
    "unknown table": (b"[extra]\nx = 1\n", 1, "unknown key 'extra' in the file"),
    "unknown rule key": (b"[[rule]]\nhost = 'a.example'\nmodes = 1\n", 3, "unknown key 'modes'"),
    "rule not a table": (b"rule = 'everything'\n", 1, "rule must be an array of tables"),
    "defaults not a table": (b"defaults = 3\n", 1, "defaults must be a table"),
}  # fmt: skip


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_file_is_refused_and_the_last_good_config_stays(
    store: ConfigStore, app: SettingsApp, hostile: tuple[bytes, int | None, str]
) -> None:
    content, line, message = hostile
    assert store.current() == GOOD_CONFIG
    edit_in_place(store.path, content)
    assert store.current() == GOOD_CONFIG  # still in force: the wiki keeps its reader view
    error = store.error
    assert error is not None and error.path == str(store.path)
    assert error.line == line and message in error.message, str(error)
    where = str(store.path) + ("" if line is None else f", line {line}")
    assert str(error).startswith(f"{where}: ")
    shown = lxml.html.document_fromstring(app.handle(WebRequest("GET", "http", "/")).body)
    assert str(error) in shown.xpath("//section[@class='error']")[0].text_content()
    # Nothing is written over a file the user has to fix first.
    form = {"token": site_token(SECRET, "a.example"), "url": "https://a.example/", "mode": "reader"}
    assert post(app, "/toggle", form, {"origin": "https://a.example"}).status == 409
    assert store.path.read_bytes() == content
    edit_in_place(store.path, GOOD.replace('mode = "reader"', 'mode = "original"'))
    assert store.current().rules == (Rule("wiki.example", mode="original"),)
    assert store.error is None


def test_a_symlink_loop_is_refused_and_the_last_good_config_stays(store: ConfigStore) -> None:
    assert store.current() == GOOD_CONFIG
    store.path.unlink()
    loop = store.path.with_name("loop.toml")
    loop.symlink_to(store.path)
    store.path.symlink_to(loop)
    assert store.current() == GOOD_CONFIG
    assert store.error is not None
    assert str(store.error).startswith(f"{store.path}: cannot read the file: ")


# -- forged posts ----------------------------------------------------------------------------

VICTIM = "https://victim.example/a"
# What each endpoint accepts from the settings page (or, for /toggle, the victim's page).
VALID = {
    "/defaults": ({"token": SECRET, "mode": "original"}, SETTINGS_ORIGIN),
    "/rules": ({"token": SECRET, "host": "evil.example", "mode": "reader"}, SETTINGS_ORIGIN),
    "/rules/remove": ({"token": SECRET, "index": "0", "host": "wiki.example"}, SETTINGS_ORIGIN),
    "/toggle": (
        {"token": site_token(SECRET, "victim.example"), "url": VICTIM, "mode": "original"},
        {"origin": "https://victim.example", "sec-fetch-site": "cross-site"},
    ),
}
EVIL = {"origin": "https://evil.example", "sec-fetch-site": "cross-site"}
SAME_SITE = {"sec-fetch-site": "same-site"}
OFF_BY_ONE = "token off by one character"
# How each forgery changes the valid request: (form changes, headers); None drops a field.
FORGERIES: dict[str, tuple[dict[str, str | None], dict[str, str] | None]] = {
    "no token": ({"token": None}, None),
    "empty token": ({"token": ""}, None),
    "wrong token": ({"token": "w" * 43}, None),
    OFF_BY_ONE: ({}, None),
    "token of another site": ({"token": site_token(SECRET, "evil.example")}, None),
    "opaque origin (sandboxed frame)": ({}, {"origin": "null"}),
    "cross-site page, valid token": ({}, EVIL),
    "other origin, no Sec-Fetch-Site": ({}, {"origin": "https://evil.example"}),
    "same-site subdomain": ({}, {"origin": "http://a.plainview.proxy", **SAME_SITE}),
    "settings host on another port": ({}, {"origin": "http://plainview.proxy:8080"}),
    "look-alike origin": ({}, {"origin": "http://plainview.proxy.evil.example"}),
}  # fmt: skip
# Reader pages send their toggles with their own origin (strict-origin), as the settings
# forms send theirs: every forgery applies to every endpoint (issue 29: Origin: null was
# accepted by /toggle).
SETTINGS_ONLY: set[str] = set()


def forged_cases() -> Iterator[tuple[str, str]]:
    """Yield (endpoint, forgery) for every forgery that applies to the endpoint."""
    for endpoint in VALID:
        for forgery in FORGERIES:
            if forgery in SETTINGS_ONLY and endpoint == "/toggle":
                continue
            yield endpoint, forgery


def forged(endpoint: str, forgery: str) -> tuple[dict[str, str], dict[str, str]]:
    """Return the form and headers of one forged request."""
    form, headers = VALID[endpoint]
    changes, forged_headers = FORGERIES[forgery]
    if forgery == OFF_BY_ONE:
        token = form["token"]
        changes = {"token": token[:-1] + ("0" if token[-1] != "0" else "1")}
    result = {k: v for k, v in {**form, **changes}.items() if v is not None}
    return result, headers if forged_headers is None else forged_headers


@pytest.mark.parametrize(("endpoint", "forgery"), list(forged_cases()))
def test_a_forged_post_is_refused_and_changes_nothing(
    app: SettingsApp, store: ConfigStore, endpoint: str, forgery: str
) -> None:
    before = store.path.read_bytes()
    form, headers = forged(endpoint, forgery)
    reply = post(app, endpoint, form, headers)
    assert reply.status == 403, reply.body[:200]
    assert b"Refused" in reply.body
    assert store.path.read_bytes() == before


# The site memory's forms (issue 31): a forgery must forget nothing.
MEMORY_VALID = {
    "/memory/forget": {"token": SECRET, "site": "victim.example"},
    "/memory/forget-all": {"token": SECRET},
}


@pytest.mark.parametrize("endpoint", MEMORY_VALID)
@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_forged_post_to_the_site_memory_forgets_nothing(
    store: ConfigStore, tmp_path: Path, endpoint: str, forgery: str
) -> None:
    memory = SiteMemoryStore(tmp_path / "site-memory")
    memory.learn("victim.example", VICTIM, frozenset({1}))
    app = SettingsApp(store, RecentPages(), SECRET, memory=memory)
    form, headers = MEMORY_VALID[endpoint], SETTINGS_ORIGIN
    changes, forged_headers = FORGERIES[forgery]
    if forgery == OFF_BY_ONE:
        changes = {"token": SECRET[:-1] + ("0" if SECRET[-1] != "0" else "1")}
    forged_form = {k: v for k, v in {**form, **changes}.items() if v is not None}
    reply = post(app, endpoint, forged_form, headers if forged_headers is None else forged_headers)
    assert reply.status == 403, reply.body[:200]
    assert memory.counts() == [SiteCount("victim.example", 1)]
    # The control: the same request unforged does forget.
    assert post(app, endpoint, form, headers).status == 303
    assert memory.counts() == []


@pytest.mark.parametrize("endpoint", VALID)
def test_each_endpoint_changes_the_file_when_the_post_is_genuine(
    app: SettingsApp, store: ConfigStore, endpoint: str
) -> None:
    # The control for the forgeries above: the same request unforged does change the file.
    before = store.path.read_bytes()
    form, headers = VALID[endpoint]
    # "Always original" answers with what it did and its undo; the rest go back.
    assert post(app, endpoint, form, headers).status == (200 if endpoint == "/toggle" else 303)
    assert store.path.read_bytes() != before


@pytest.mark.parametrize("endpoint", VALID)
def test_a_get_never_changes_anything(app: SettingsApp, store: ConfigStore, endpoint: str) -> None:
    before = store.path.read_bytes()
    form, headers = VALID[endpoint]
    reply = app.handle(WebRequest("GET", "http", f"{endpoint}?{urlencode(form)}", headers))
    assert reply.status == 405
    assert store.path.read_bytes() == before
