"""Per-site settings: the only reader and writer of Plainview's TOML config file.

The file has a `[defaults]` table and any number of `[[rule]]` tables:

    [defaults]
    mode = "auto"        # reader | original | auto
    theme = "auto"       # auto | light | dark | sepia
    font_size = 100      # percent, 50..300
    width = 40           # column width in em, 20..120

    [[rule]]
    host = ".news.example.org"  # the domain and its subdomains; "example.com": that host only
    path = "/blog/"             # optional path prefix
    mode = "original"           # optional; so are theme, font_size and width

The last matching rule wins (as in Privoxy); what it leaves unset comes from
`[defaults]`. Reads use tomllib (strict and fast); writes edit the file's
tomlkit document, so the user's comments and layout stay, and replace the file
atomically under an exclusive lock, after re-reading it inside that lock.
"""

from __future__ import annotations

import fcntl
import ipaddress
import os
import re
import stat
import string
import tempfile
import threading
import tomllib
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar
from urllib.parse import quote

import platformdirs
import tomlkit
from tomlkit.container import Container
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import AoT, Array, InlineTable, Item, Table
from tomlkit.toml_document import TOMLDocument

Mode = Literal["reader", "original", "auto"]
Theme = Literal["auto", "light", "dark", "sepia"]
Field = Literal["mode", "theme", "font_size", "width"]

MODES: tuple[Mode, ...] = ("reader", "original", "auto")
THEMES: tuple[Theme, ...] = ("auto", "light", "dark", "sepia")
FIELDS: tuple[Field, ...] = ("mode", "theme", "font_size", "width")
# font_size is a percentage of the reader view's base size; width is in em.
FONT_SIZE_MIN, FONT_SIZE_MAX = 50, 300
WIDTH_MIN, WIDTH_MAX = 20, 120

_T = TypeVar("_T")
_S = TypeVar("_S", bound=str)
_Where = tuple[str | int, ...]  # a TOML path: ("rule", 2, "mode")

_RULE_KEYS = ("host", "path", *FIELDS)
_LABEL = r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?"
_HOSTNAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_MAX_HOST_CHARS = 253  # RFC 1035 §2.3.4, without the final dot
_TOMLLIB_POSITION = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")
# A key that cannot occur in a valid file, used to find where an item starts.
_MARK = "\u2063plainview-locate\u2063"

_TEMPLATE = """\
# Plainview site settings.
#
# Plainview reads this file again whenever it changes: edits take effect on the
# next page load. The settings page writes its changes into this file and keeps
# your comments.

# [defaults] applies to every site that no rule below matches.
[defaults]
mode = "auto"        # reader | original | auto (reader view if the page is an article)
theme = "auto"       # auto (follows the browser's light/dark preference) | light | dark | sepia
font_size = 100      # text size in percent, 50..300
width = 40           # column width in em, 20..120

# Rules: one [[rule]] table per site, or per part of a site.
#   host = "example.com"    this host only (letter case and port do not matter)
#   host = ".example.com"   example.com and all of its subdomains
#   path = "/blog/"         optional: only pages whose path starts with this
# When several rules match a page, the LAST one in this file wins. A rule may
# also set theme, font_size and width; what it leaves out comes from [defaults].
# For example:
#
# [[rule]]
# host = ".news.example.org"
# path = "/blog/"
# mode = "original"
# theme = "dark"
"""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on a config file, so that a hostile one is rejected cheaply."""

    # Settings take a few KiB; 1 MiB holds about 10,000 rules.
    max_bytes: int = 1024 * 1024
    max_rules: int = 10_000
    # tomllib's time grows with the square of a dotted key's depth (100 s for
    # 50,000 dots); a host name has at most 126 dots.
    max_dots_per_line: int = 300
    # Naming an invalid item's line re-parses the file with tomlkit, about ten
    # times slower than tomllib; larger files get errors without a line.
    locate_max_chars: int = 128 * 1024


@dataclass(frozen=True, slots=True)
class ConfigError:
    """What is wrong with a config file or a requested change, and where."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        """Return 'path, line N: message' (without the line when it is unknown)."""
        where = self.path if self.line is None else f"{self.path}, line {self.line}"
        return f"{where}: {self.message}"


class ConfigWriteError(ValueError):
    """A change was refused and the file left as it was; `error` says why."""

    def __init__(self, error: ConfigError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True, slots=True)
class SiteSettings:
    """How one page is shown; `rule_index` is the rule that matched (None: defaults)."""

    mode: Mode = "auto"
    theme: Theme = "auto"
    font_size: int = 100
    width: int = 40
    rule_index: int | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """One [[rule]]; unset fields (None) fall back to the defaults.

    `host` is normalised: lower case, IDNA names in punycode, IPv6 without
    brackets; a leading "." means the domain and all its subdomains. `path` is
    a prefix of the request path, non-ASCII characters percent-encoded.
    """

    host: str
    path: str | None = None
    mode: Mode | None = None
    theme: Theme | None = None
    font_size: int | None = None
    width: int | None = None

    def matches(self, host: str, path: str) -> bool:
        """Tell whether this rule applies to a normalised host and a request path."""
        if self.host.startswith("."):
            host_ok = host == self.host[1:] or host.endswith(self.host)
        else:
            host_ok = host == self.host
        return host_ok and (self.path is None or path.startswith(self.path))


@dataclass(frozen=True, slots=True)
class SiteConfig:
    """The whole file: the defaults and the rules in file order."""

    defaults: SiteSettings = field(default_factory=SiteSettings)
    rules: tuple[Rule, ...] = ()

    def settings_for(self, host: str, path: str = "/") -> SiteSettings:
        """Return the settings of a request: the last matching rule over the defaults.

        `host` may carry a port and be in any case or in Unicode; `path` is the
        request path as sent (percent-encoded, the query may follow). The scan
        is linear in the number of rules.
        """
        name = _request_host(host)
        if name is None:
            return self.defaults
        for index in range(len(self.rules) - 1, -1, -1):
            rule = self.rules[index]
            if rule.matches(name, path or "/"):
                return _apply_rule(self.defaults, rule, index)
        return self.defaults


def _apply_rule(defaults: SiteSettings, rule: Rule, index: int) -> SiteSettings:
    """Return the defaults overridden by the fields the rule sets."""
    return SiteSettings(
        mode=defaults.mode if rule.mode is None else rule.mode,
        theme=defaults.theme if rule.theme is None else rule.theme,
        font_size=defaults.font_size if rule.font_size is None else rule.font_size,
        width=defaults.width if rule.width is None else rule.width,
        rule_index=index,
    )


def default_config_path() -> Path:
    """Return the config file's place in the user's config directory."""
    return platformdirs.user_config_path("plainview") / "config.toml"


# -- host names ----------------------------------------------------------------------


def _ascii_host(name: str) -> str | None:
    """Return a host name in lower-case ASCII (IDNA in punycode), or None if it is none."""
    if not name.isascii():
        try:
            name = name.encode("idna").decode("ascii")
        except UnicodeError:  # the codec's only way to say "not a host name"
            return None
    name = name.lower()
    return name if len(name) <= _MAX_HOST_CHARS and _HOSTNAME.fullmatch(name) else None


def _ipv6(text: str) -> str | None:
    """Return an IPv6 address in its compressed form, or None if it is none."""
    try:
        return ipaddress.IPv6Address(text).compressed
    except ValueError:  # the parser's only way to say "not an address"
        return None


def _request_host(host: str) -> str | None:
    """Return a request's host without port or final dot, normalised like patterns."""
    host = host.strip()
    if host.startswith("["):  # "[v6]" or "[v6]:port"
        end = host.find("]")
        return _ipv6(host[1:end]) if end > 0 else None
    if host.count(":") == 1:
        host = host.partition(":")[0]
    elif ":" in host:
        return _ipv6(host)
    return _ascii_host(host.removesuffix("."))


def _host_pattern(text: str) -> str | None:
    """Return a rule's host pattern normalised, or None if it is none."""
    if text.startswith("."):
        name = _ascii_host(text[1:])
        return None if name is None else "." + name
    if text.startswith("[") and text.endswith("]"):
        return _ipv6(text[1:-1])
    return _ipv6(text) if ":" in text else _ascii_host(text)


# -- validation ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Problem:
    """A validation failure and the TOML path of the offending item."""

    message: str
    where: _Where = ()


@dataclass(frozen=True, slots=True)
class _Fields:
    """The settings a table sets: [defaults] or one rule (None: not set)."""

    mode: Mode | None = None
    theme: Theme | None = None
    font_size: int | None = None
    width: int | None = None


def _describe(value: object) -> str:
    """Return a short description of a TOML value for an error message."""
    names = {bool: "a boolean", list: "an array", dict: "a table"}
    for kind, name in names.items():
        if isinstance(value, kind):
            return name
    text = repr(value) if isinstance(value, str | int | float) else f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _choice(value: object, key: str, allowed: tuple[_S, ...]) -> _S | _Problem:
    """Return `value` if it is one of `allowed`."""
    for option in allowed:
        if value == option:
            return option
    return _Problem(f"{key} must be one of {', '.join(allowed)} (got {_describe(value)})")


def _integer(value: object, key: str, low: int, high: int) -> int | _Problem:
    """Return `value` if it is an integer from `low` to `high`."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return _Problem(f"{key} must be an integer from {low} to {high} (got {_describe(value)})")


def _check_mode(value: object) -> Mode | _Problem:
    """Return a valid mode."""
    return _choice(value, "mode", MODES)


def _check_theme(value: object) -> Theme | _Problem:
    """Return a valid theme."""
    return _choice(value, "theme", THEMES)


def _check_font_size(value: object) -> int | _Problem:
    """Return a valid font size."""
    return _integer(value, "font_size", FONT_SIZE_MIN, FONT_SIZE_MAX)


def _check_width(value: object) -> int | _Problem:
    """Return a valid column width."""
    return _integer(value, "width", WIDTH_MIN, WIDTH_MAX)


def _check_host(value: object) -> str | _Problem:
    """Return a rule's host pattern, normalised."""
    pattern = _host_pattern(value) if isinstance(value, str) else None
    if pattern is not None:
        return pattern
    hint = ""
    if isinstance(value, str) and value.startswith("*."):
        hint = f"; for a domain and its subdomains write '{value[1:]}'"
    return _Problem(
        "host must be a host name such as 'example.com', or '.example.com' for a domain "
        f"and its subdomains (got {_describe(value)}){hint}"
    )


def _check_path(value: object) -> str | _Problem:
    """Return a rule's path prefix, non-ASCII characters percent-encoded."""
    if (
        isinstance(value, str)
        and value.startswith("/")
        and not any(ord(char) <= 0x20 or ord(char) == 0x7F for char in value)
    ):
        return quote(value, safe=string.punctuation)
    return _Problem(
        f"path must start with '/' and have no spaces or control characters (got {_describe(value)})"
    )


def _get(
    table: Mapping[str, object], key: str, check: Callable[[object], _T | _Problem]
) -> _T | None | _Problem:
    """Return the checked value of `key` (None when absent); a problem names the key."""
    if key not in table:
        return None
    checked = check(table[key])
    return _Problem(checked.message, (key,)) if isinstance(checked, _Problem) else checked


def _inside(problem: _Problem, where: _Where, prefix: str) -> _Problem:
    """Return the problem of an item as seen from the table at `where`."""
    return _Problem(prefix + problem.message, (*where, *problem.where))


def _unknown_key(table: Mapping[str, object], allowed: tuple[str, ...], name: str) -> _Problem | None:
    """Return a problem naming the first key of `table` that is not allowed."""
    for key in table:
        if key not in allowed:
            expected = ", ".join(allowed)
            return _Problem(f"unknown key '{key}' in {name} (expected {expected})", (key,))
    return None


def _fields(table: Mapping[str, object]) -> _Fields | _Problem:
    """Return the mode, theme, font size and width that a table sets."""
    mode = _get(table, "mode", _check_mode)
    if isinstance(mode, _Problem):
        return mode
    theme = _get(table, "theme", _check_theme)
    if isinstance(theme, _Problem):
        return theme
    font_size = _get(table, "font_size", _check_font_size)
    if isinstance(font_size, _Problem):
        return font_size
    width = _get(table, "width", _check_width)
    if isinstance(width, _Problem):
        return width
    return _Fields(mode, theme, font_size, width)


def _defaults(value: object) -> SiteSettings | _Problem:
    """Return the [defaults] table as settings, built-in values filling what is unset."""
    if not isinstance(value, dict):
        return _Problem(f"defaults must be a table, [defaults] (got {_describe(value)})", ("defaults",))
    problem = _unknown_key(value, FIELDS, "[defaults]")
    fields = problem or _fields(value)
    if isinstance(fields, _Problem):
        return _inside(fields, ("defaults",), "")
    base = SiteSettings()
    return SiteSettings(
        mode=fields.mode or base.mode,
        theme=fields.theme or base.theme,
        font_size=base.font_size if fields.font_size is None else fields.font_size,
        width=base.width if fields.width is None else fields.width,
    )


def _rule(value: object, index: int) -> Rule | _Problem:
    """Return one [[rule]] table as a Rule."""
    where, prefix = ("rule", index), f"rule {index + 1}: "
    if not isinstance(value, dict):
        return _Problem(f"{prefix}must be a table (got {_describe(value)})", where)
    host = _unknown_key(value, _RULE_KEYS, "[[rule]]") or _get(value, "host", _check_host)
    if isinstance(host, _Problem):
        return _inside(host, where, prefix)
    if host is None:
        return _Problem(f"{prefix}host is missing", where)
    path = _get(value, "path", _check_path)
    if isinstance(path, _Problem):
        return _inside(path, where, prefix)
    fields = _fields(value)
    if isinstance(fields, _Problem):
        return _inside(fields, where, prefix)
    return Rule(host, path, fields.mode, fields.theme, fields.font_size, fields.width)


def _rules(value: object, limits: Limits) -> tuple[Rule, ...] | _Problem:
    """Return the [[rule]] tables as Rules, in file order."""
    if not isinstance(value, list):
        return _Problem(
            f"rule must be an array of tables, [[rule]] (got {_describe(value)})", ("rule",)
        )
    if len(value) > limits.max_rules:
        return _Problem(
            f"too many rules ({len(value)}; at most {limits.max_rules})", ("rule", limits.max_rules)
        )
    rules: list[Rule] = []
    for index, item in enumerate(value):
        rule = _rule(item, index)
        if isinstance(rule, _Problem):
            return rule
        rules.append(rule)
    return tuple(rules)


def _validate(data: Mapping[str, object], limits: Limits) -> SiteConfig | _Problem:
    """Return the config a parsed file describes."""
    problem = _unknown_key(data, ("defaults", "rule"), "the file")
    if problem is not None:
        return problem
    defaults = _defaults(data.get("defaults", {}))
    if isinstance(defaults, _Problem):
        return defaults
    rules = _rules(data.get("rule", []), limits)
    if isinstance(rules, _Problem):
        return rules
    return SiteConfig(defaults, rules)


# -- parsing -------------------------------------------------------------------------


def _too_complex(text: str, limits: Limits) -> _Problem | None:
    """Return a problem if the text is too large or nests keys too deeply to parse."""
    if len(text) > limits.max_bytes:
        return _Problem(f"file too large ({len(text)} characters; at most {limits.max_bytes})")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.count(".") > limits.max_dots_per_line:
            return _Problem(f"line {number} has more than {limits.max_dots_per_line} dots")
    return None


def _syntax_error(error: ValueError, text: str, path: str) -> ConfigError:
    """Return a tomllib error as a ConfigError with its line."""
    message = str(error)
    found = _TOMLLIB_POSITION.search(message)
    if found is None:  # not a position-bearing TOMLDecodeError, e.g. a 5,000-digit integer
        return ConfigError(path, None, f"not valid TOML: {message}")
    if found.group(1) is None:
        line, column = text.count("\n") + 1, "at the end of the file"
    else:
        line, column = int(found.group(1)), f"at column {found.group(2)}"
    return ConfigError(path, line, f"not valid TOML: {message[: found.start()]} {column}")


def _load_toml(text: str, path: str, limits: Limits) -> dict[str, object] | ConfigError:
    """Return the parsed file, refusing what is too large, too deep or invalid."""
    problem = _too_complex(text, limits)
    if problem is not None:
        return ConfigError(path, None, problem.message)
    try:
        return tomllib.loads(text)
    except ValueError as error:  # TOMLDecodeError, or int()'s digit limit
        return _syntax_error(error, text, path)
    except RecursionError:  # tomllib recurses once per nested array or inline table
        return ConfigError(path, None, "not valid TOML: values nested too deeply")


def parse_config(text: str, *, path: str = "config.toml", limits: Limits = Limits()) -> SiteConfig | ConfigError:
    """Return the config the text describes, or what is wrong with it and where."""
    data = _load_toml(text, path, limits)
    if isinstance(data, ConfigError):
        return data
    config = _validate(data, limits)
    if isinstance(config, _Problem):
        line = _line_of(text, config.where) if len(text) <= limits.locate_max_chars else None
        return ConfigError(path, line, config.message)
    return config


def _child(node: object, part: str | int) -> object:
    """Return the item of a tomlkit container at one step of a TOML path."""
    if isinstance(part, int) and isinstance(node, AoT | Array) and part < len(node):
        return node[part]
    if isinstance(part, str) and isinstance(node, Container | Table | InlineTable) and part in node:
        return node[part]
    return None


def _mark(node: object, part: str | int) -> bool:
    """Put the mark where the item at `part` of `node` starts; tell whether it could."""
    item = _child(node, part)
    if isinstance(item, AoT) and len(item) > 0:
        item = item[0]
    if isinstance(item, Table | InlineTable):  # a comment goes on the header line
        item.comment(_MARK)
        return True
    if isinstance(part, str) and isinstance(node, Container | Table | InlineTable):
        node[part] = _MARK  # the value starts on its key's line
        return True
    return False


def _line_of(text: str, where: _Where) -> int | None:
    """Return the line of the item at a TOML path, or None if it cannot be found.

    Mark the item in a tomlkit copy of the file; the first character where the
    rendered copy differs from the text is on the item's first line.
    """
    if not where:
        return None
    try:
        document = tomlkit.parse(text)
    except TOMLKitError:  # a file tomllib accepted but tomlkit does not
        return None
    node: object = document
    for part in where[:-1]:
        node = _child(node, part)
    if not _mark(node, where[-1]):
        return None
    rendered = document.as_string()
    if rendered == text:  # the mark went where tomlkit does not render it
        return None
    differs = next(
        (i for i, (a, b) in enumerate(zip(rendered, text, strict=False)) if a != b),
        min(len(rendered), len(text)),
    )
    return text.count("\n", 0, differs) + 1
