"""Per-site settings: the only reader and writer of Plainview's TOML config file.

The file has a `[defaults]` table and any number of `[[rule]]` tables:

    [defaults]
    mode = "auto"        # reader | original | auto
    theme = "auto"       # auto | light | dark | sepia
    font_size = 100      # percent, 50..300
    width = 40           # column width in em, 20..120
    font = "serif"       # serif | sans
    line_height = 170    # percent of the text size, 120..250

    [[rule]]
    host = ".news.example.org"  # the domain and its subdomains; "example.com": that host only
    path = "/blog/"             # optional path prefix
    mode = "original"           # optional; so are theme, font_size, width, font and line_height

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
from tomlkit.items import AoT, Array, Comment, InlineTable, Table, Whitespace
from tomlkit.toml_document import TOMLDocument

Mode = Literal["reader", "original", "auto"]
Theme = Literal["auto", "light", "dark", "sepia"]
Font = Literal["serif", "sans"]
Field = Literal["mode", "theme", "font_size", "width", "font", "line_height"]

MODES: tuple[Mode, ...] = ("reader", "original", "auto")
THEMES: tuple[Theme, ...] = ("auto", "light", "dark", "sepia")
FONTS: tuple[Font, ...] = ("serif", "sans")
FIELDS: tuple[Field, ...] = ("mode", "theme", "font_size", "width", "font", "line_height")
# font_size is a percentage of the reader view's base size; width is in em;
# line_height a percentage of the text size.
FONT_SIZE_MIN, FONT_SIZE_MAX = 50, 300
WIDTH_MIN, WIDTH_MAX = 20, 120
LINE_HEIGHT_MIN, LINE_HEIGHT_MAX = 120, 250

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
font = "serif"       # serif | sans
line_height = 170    # line height in percent of the text size, 120..250

# Rules: one [[rule]] table per site, or per part of a site.
#   host = "example.com"    this host only (letter case and port do not matter)
#   host = ".example.com"   example.com and all of its subdomains
#   path = "/blog/"         optional: only pages whose path starts with this
# When several rules match a page, the LAST one in this file wins. A rule may
# also set theme, font_size, width, font and line_height; what it leaves out
# comes from [defaults].
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
    font: Font = "serif"
    line_height: int = 170
    rule_index: int | None = None
    # The matched rule's host and path when it sets the mode ("example.org/blog/").
    mode_rule: str = ""


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
    font: Font | None = None
    line_height: int | None = None

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
        """Return the settings of a request: the last matching rule over the defaults."""
        # `host` may carry a port, any letter case or Unicode; `path` is the
        # request path as sent: percent-encoded, perhaps with a query.
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
        font=defaults.font if rule.font is None else rule.font,
        line_height=defaults.line_height if rule.line_height is None else rule.line_height,
        rule_index=index,
        mode_rule="" if rule.mode is None else f"{rule.host}{rule.path or ''}",
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
    font: Font | None = None
    line_height: int | None = None


def _describe(value: object) -> str:
    """Return a short description of a TOML value for an error message."""
    names = {bool: "a boolean", list: "an array", dict: "a table"}
    for kind, name in names.items():
        if isinstance(value, kind):
            return name
    if isinstance(value, int) and value.bit_length() > 64:  # repr() of 5,000 digits raises
        return "an integer out of range"
    text = repr(value) if isinstance(value, str | int | float) else f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _choice(value: object, key: str, allowed: tuple[_S, ...]) -> _S | _Problem:
    """Return `value` if it is one of `allowed`."""
    for option in allowed:
        if value == option:
            return option
    return _Problem(f"{key} must be one of {', '.join(allowed)} (got {_describe(value)})", (key,))


def _integer(value: object, key: str, low: int, high: int) -> int | _Problem:
    """Return `value` if it is an integer from `low` to `high`."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return _Problem(
        f"{key} must be an integer from {low} to {high} (got {_describe(value)})", (key,)
    )


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


def _check_font(value: object) -> Font | _Problem:
    """Return a valid font family."""
    return _choice(value, "font", FONTS)


def _check_line_height(value: object) -> int | _Problem:
    """Return a valid line height."""
    return _integer(value, "line_height", LINE_HEIGHT_MIN, LINE_HEIGHT_MAX)


def _check_host(value: object) -> str | _Problem:
    """Return a rule's host pattern, normalised."""
    pattern = _host_pattern(value) if isinstance(value, str) else None
    if pattern is not None:
        return pattern
    hint = ""
    if isinstance(value, str) and value.startswith("*."):
        hint = f"; write '{value[1:]}' instead"
    return _Problem(
        "host must be a host name such as 'example.com', or '.example.com' for a domain "
        f"and its subdomains (got {_describe(value)}){hint}",
        ("host",),
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
        "path must start with '/' and have no spaces or control characters "
        f"(got {_describe(value)})",
        ("path",),
    )


def _inside(problem: _Problem, where: _Where, prefix: str) -> _Problem:
    """Return the problem of an item as seen from the table at `where`."""
    return _Problem(prefix + problem.message, (*where, *problem.where))


def _unknown_key(
    table: Mapping[str, object], allowed: tuple[str, ...], name: str
) -> _Problem | None:
    """Return a problem naming the first key of `table` that is not allowed."""
    for key in table:
        if key not in allowed:
            expected = ", ".join(allowed)
            return _Problem(f"unknown key '{key}' in {name} (expected {expected})", (key,))
    return None


def _fields(table: Mapping[str, object]) -> _Fields | _Problem:
    """Return the mode, theme, font size, width, font and line height that a table sets."""
    checked = _checked({key: table.get(key) for key in FIELDS})
    if isinstance(checked, _Problem):
        return checked
    return _Fields(**checked)  # type: ignore[arg-type]  # each value checked for its key


def _defaults(value: object) -> SiteSettings | _Problem:
    """Return the [defaults] table as settings, built-in values filling what is unset."""
    if not isinstance(value, dict):
        return _Problem(
            f"defaults must be a table, [defaults] (got {_describe(value)})", ("defaults",)
        )
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
        font=fields.font or base.font,
        line_height=base.line_height if fields.line_height is None else fields.line_height,
    )


def _rule(value: object, index: int) -> Rule | _Problem:
    """Return one [[rule]] table as a Rule."""
    where, prefix = ("rule", index), f"rule {index + 1}: "
    if not isinstance(value, dict):
        return _Problem(f"{prefix}must be a table (got {_describe(value)})", where)
    unknown = _unknown_key(value, _RULE_KEYS, "[[rule]]")
    if unknown is not None:
        return _inside(unknown, where, prefix)
    if "host" not in value:
        return _Problem(f"{prefix}host is missing", where)
    host = _check_host(value["host"])
    if isinstance(host, _Problem):
        return _inside(host, where, prefix)
    path = _check_path(value["path"]) if "path" in value else None
    if isinstance(path, _Problem):
        return _inside(path, where, prefix)
    fields = _fields(value)
    if isinstance(fields, _Problem):
        return _inside(fields, where, prefix)
    return Rule(
        host,
        path,
        fields.mode,
        fields.theme,
        fields.font_size,
        fields.width,
        fields.font,
        fields.line_height,
    )


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


def parse_config(
    text: str, *, path: str = "config.toml", limits: Limits = Limits()
) -> SiteConfig | ConfigError:
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
    while isinstance(item, Table) and item.is_super_table() and len(item) > 0:
        item = next(iter(item.values()))  # "[a.b]" has no "[a]" header: mark "[a.b]"
    if isinstance(item, Table | InlineTable):  # a comment goes on the header line
        item.comment(_MARK)
        return True
    if isinstance(part, str) and isinstance(node, Container | Table | InlineTable):
        node[part] = _MARK  # the value starts on its key's line
        return True
    return False


def _line_of(text: str, where: _Where) -> int | None:
    """Return the line of the item at a TOML path, or None if it cannot be found."""
    # tomllib gives no positions: mark the item in a tomlkit copy of the file;
    # the first character where the copy's text differs is on the item's line.
    if not where:
        return None
    try:
        document = tomlkit.parse(text)
        node: object = document
        for part in where[:-1]:
            node = _child(node, part)
        marked = _mark(node, where[-1])
        rendered = document.as_string()
    except TOMLKitError:  # a file tomllib accepted but tomlkit does not
        return None
    if not marked or rendered == text:  # the mark went where tomlkit does not render it
        return None
    differs = next(
        (i for i, (a, b) in enumerate(zip(rendered, text, strict=False)) if a != b),
        min(len(rendered), len(text)),
    )
    return text.count("\n", 0, differs) + 1


# -- editing the document ------------------------------------------------------------


def _end_with_blank_line(container: Table | Container) -> None:
    """Make the container's text end with an empty line, so what follows stands apart."""
    tail = container.as_string().replace("\r\n", "\n")
    newlines = len(tail) - len(tail.rstrip("\n"))
    for _ in range(max(0, 2 - newlines) if tail else 0):
        container.add(tomlkit.nl())


def _pop_trailing(table: Table) -> list[Comment | Whitespace]:
    """Remove and return the comments and blank lines after the table's last key."""
    # tomlkit keeps the comments above a table's header in the table before it:
    # these introduce whatever follows the table, not the table itself.
    body = table.value.body
    trailing: list[Comment | Whitespace] = []
    while body and body[-1][0] is None:
        item = body[-1][1]
        if not isinstance(item, Comment | Whitespace):
            break
        body.pop()
        trailing.insert(0, item)
    return trailing


def _set_key(table: Table | InlineTable, key: str, value: str | int) -> None:
    """Set a key; an existing one keeps its comment, a new one goes after the last key."""
    if key in table or not isinstance(table, Table):
        table[key] = value
        return
    trailing = _pop_trailing(table)
    table[key] = value
    for item in trailing:
        table.add(item)


def _last_table(document: TOMLDocument) -> Table | Container:
    """Return the container whose text ends the document."""
    last = document.body[-1][1] if document.body else None
    if isinstance(last, AoT) and len(last) > 0:
        last = last[-1]
    return last if isinstance(last, Table) else document


def _append_rule(document: TOMLDocument, values: Mapping[str, str | int]) -> None:
    """Add a rule after the last one (as an inline table if the rules are written so)."""
    rules = document.get("rule")
    if isinstance(rules, Array):
        inline = tomlkit.inline_table()
        inline.update(values)
        rules.append(inline)
        return
    table = tomlkit.table()
    table.update(values)
    if isinstance(rules, AoT):
        if len(rules) > 0:
            _end_with_blank_line(rules[-1])
        rules.append(table)
        return
    _end_with_blank_line(_last_table(document))
    document.append("rule", tomlkit.aot())
    document["rule"].append(table)


def _rule_table(document: TOMLDocument, index: int) -> Table | InlineTable | None:
    """Return the tomlkit table of rule `index`."""
    table = _child(_child(document, "rule"), index)
    return table if isinstance(table, Table | InlineTable) else None


def _delete_rule(document: TOMLDocument, index: int) -> None:
    """Remove rule `index`, keeping the comments that introduce what follows it."""
    rules = document["rule"]
    if not isinstance(rules, AoT):
        del rules[index]
        return
    trailing = _pop_trailing(rules[index])
    # Blank lines before the first comment only set the removed rule apart.
    first = next((i for i, item in enumerate(trailing) if isinstance(item, Comment)), len(trailing))
    trailing = trailing[first:]
    del rules[index]
    if index > 0:
        for item in trailing:
            rules[index - 1].add(item)
        return
    keys = [None if key is None else key.key for key, _ in document.body]
    if len(rules) == 0:
        del document["rule"]
    # Editing the body list directly is safe as the last change before rendering.
    position = keys.index("rule")
    document.body[position:position] = [(None, item) for item in trailing]


def _update_rule(
    document: TOMLDocument, index: int, values: Mapping[str, str | int], clear: Collection[str]
) -> _Problem | None:
    """Set and clear fields of rule `index`."""
    table = _rule_table(document, index)
    if table is None:
        return _Problem(f"rule {index + 1} cannot be edited here; it is not a table")
    for key in clear:
        if key in table:
            del table[key]
    for key, value in values.items():
        _set_key(table, key, value)
    return None


def _set_defaults(document: TOMLDocument, values: Mapping[str, str | int]) -> _Problem | None:
    """Set fields of the [defaults] table, adding the table if there is none."""
    table = document.get("defaults")
    if table is None:
        _end_with_blank_line(_last_table(document))
        document.append("defaults", tomlkit.table())
        table = document["defaults"]
    if not isinstance(table, Table | InlineTable):
        return _Problem("defaults cannot be edited here; it is not a table")
    for key, value in values.items():
        _set_key(table, key, value)
    return None


_Change = Callable[[TOMLDocument, SiteConfig], "_Problem | None"]


def _edited(text: str, config: SiteConfig, change: _Change, path: str) -> str | ConfigError:
    """Return the text with the change applied to its tomlkit document."""
    try:
        document = tomlkit.parse(text)
        problem = change(document, config)
    except TOMLKitError as error:  # a file tomllib accepted but tomlkit does not
        return ConfigError(path, None, f"this file cannot be edited here: {error}")
    if problem is not None:
        return ConfigError(path, None, problem.message)
    return document.as_string()


# -- the file ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Stamp:
    """What tells one version of the file on disk from another."""

    mtime_ns: int
    size: int
    inode: int


_UNREAD = _Stamp(-1, -1, -1)  # no version read yet, or the last read failed
# How often a change is redone when the file changes under it before it is saved.
_SAVE_ATTEMPTS = 5


class _Changed:
    """Marks a save given up because the file changed since it was read."""


_CHANGED = _Changed()


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """The file's bytes (None: no file), their version and the file's permission bits."""

    data: bytes | None
    stamp: _Stamp | None = None
    mode: int = 0o600  # a new file: its hosts say where the user browses


def _stamp(info: os.stat_result) -> _Stamp:
    """Return the version stamp of a stat result."""
    return _Stamp(info.st_mtime_ns, info.st_size, info.st_ino)


def _os_error(path: Path, verb: str, error: OSError) -> ConfigError:
    """Return an operating-system failure as a ConfigError."""
    return ConfigError(str(path), None, f"cannot {verb} the file: {error.strerror or error}")


def _stat(path: Path) -> _Stamp | ConfigError | None:
    """Return the file's version stamp, None if there is no file."""
    try:
        return _stamp(os.stat(path))
    except FileNotFoundError:
        return None
    except OSError as error:
        return _os_error(path, "read", error)


def _open_nonblocking(name: str, flags: int) -> int:
    """Open without blocking, so that a FIFO in the file's place cannot hang us."""
    return os.open(name, flags | os.O_NONBLOCK)


def _read_file(path: Path, limits: Limits) -> _Snapshot | ConfigError:
    """Read up to one byte more than the size limit, with the version read."""
    try:
        with open(path, "rb", opener=_open_nonblocking) as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                return ConfigError(str(path), None, "not a regular file")
            data = file.read(limits.max_bytes + 1)
    except FileNotFoundError:
        return _Snapshot(None)
    except OSError as error:
        return _os_error(path, "read", error)
    return _Snapshot(data, _stamp(info), stat.S_IMODE(info.st_mode))


def _decode(data: bytes, path: str, limits: Limits) -> str | ConfigError:
    """Return the file's text; refuse a file over the limit or not in UTF-8."""
    if len(data) > limits.max_bytes:
        return ConfigError(path, None, f"file too large (over {limits.max_bytes} bytes)")
    try:
        return data.decode("utf-8-sig")  # an editor's byte order mark is dropped
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        byte = data[error.start]
        message = f"not UTF-8 text (byte 0x{byte:02x} at offset {error.start})"
        return ConfigError(path, line, message)


def _fsync_directory(directory: Path) -> None:
    """Make a rename in the directory durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _replace_file(path: Path, text: str, mode: int, expect: _Stamp | None) -> _Stamp | None:
    """Replace the file atomically: write a sibling, flush, fsync, rename; keep its mode.

    The rename happens only if the file is still the version `expect` (None:
    no file); otherwise nothing changes and None is returned.
    """
    target = Path(os.path.realpath(path))  # through a symlink, which stays a symlink
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    replaced = False
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(text.encode("utf-8"))
            file.flush()
            os.fchmod(file.fileno(), mode)
            os.fsync(file.fileno())
            written = _stamp(os.fstat(file.fileno()))
        # An editor does not take our lock: a save of theirs since our read would be
        # lost by the rename. Checked as late as possible, so the window is tiny.
        if _stat(path) != expect:
            return None
        os.replace(temporary, target)
        replaced = True
    finally:
        if not replaced:
            with suppress(FileNotFoundError):
                os.unlink(temporary)
    # The new file is in place: a directory that cannot be synced (some file systems
    # refuse fsync on directories) costs durability in a crash, not the change itself.
    with suppress(OSError):
        _fsync_directory(target.parent)
    return written


@contextmanager
def _exclusive_lock(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the lock file (threads and processes alike wait)."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _unchanged(document: TOMLDocument, config: SiteConfig) -> _Problem | None:
    """Change nothing (used to create the file from the template)."""
    return None


_CHECKS: dict[str, Callable[[object], object]] = {
    "host": _check_host,
    "path": _check_path,
    "mode": _check_mode,
    "theme": _check_theme,
    "font_size": _check_font_size,
    "width": _check_width,
    "font": _check_font,
    "line_height": _check_line_height,
}


def _checked(values: Mapping[str, object]) -> dict[str, object] | _Problem:
    """Return the normalised form of each given value (None: not given)."""
    checked: dict[str, object] = {}
    for key, value in values.items():
        if value is not None:
            result = _CHECKS[key](value)
            if isinstance(result, _Problem):
                return result
            checked[key] = result
    return checked


def _last_index(rules: tuple[Rule, ...], host: object, path: object) -> int | None:
    """Return the index of the last rule with exactly this host pattern and path."""
    for index in range(len(rules) - 1, -1, -1):
        if rules[index].host == host and rules[index].path == path:
            return index
    return None


class ConfigStore:
    """Owns one config file: serves its last good version and changes it safely.

    Safe to share between threads. Writers in all processes take an exclusive
    lock on the sibling file "<name>.lock" and re-read the file inside it, so
    concurrent changes and hand edits are all kept.
    """

    def __init__(self, path: Path, *, limits: Limits = Limits()) -> None:
        self.path = path
        self.limits = limits
        # The lock file stays: removing it would let two writers lock two files.
        self._lock_path = path.with_name(path.name + ".lock")
        self._state = threading.Lock()
        self._config = SiteConfig()
        self._error: ConfigError | None = None
        self._stamp: _Stamp | None = _UNREAD

    @property
    def error(self) -> ConfigError | None:
        """Return what is wrong with the file now (None: nothing)."""
        with self._state:
            return self._error

    def current(self) -> SiteConfig:
        """Return the last good config, re-reading the file first if it changed."""
        # One stat per call, so hand edits count at once. An invalid file keeps
        # the last good config in force and sets `error`; no file: the defaults.
        stamp = _stat(self.path)
        with self._state:
            if isinstance(stamp, ConfigError):
                self._error, self._stamp = stamp, _UNREAD
            elif stamp != self._stamp:
                self._settle(_read_file(self.path, self.limits))
            return self._config

    def _settle(self, snapshot: _Snapshot | ConfigError) -> SiteConfig | ConfigError:
        """Take in what the file holds; the caller holds the state lock."""
        if isinstance(snapshot, ConfigError):
            self._error, self._stamp = snapshot, _UNREAD
            return snapshot
        self._stamp = snapshot.stamp
        outcome = self._parse(snapshot.data)
        if isinstance(outcome, ConfigError):
            self._error = outcome
        else:
            self._config, self._error = outcome, None
        return outcome

    def _parse(self, data: bytes | None) -> SiteConfig | ConfigError:
        """Return the config in the file's bytes (no file: the defaults)."""
        if data is None:
            return SiteConfig()
        text = _decode(data, str(self.path), self.limits)
        if isinstance(text, ConfigError):
            return text
        return parse_config(text, path=str(self.path), limits=self.limits)

    # -- changes -----------------------------------------------------------------------

    def set_rule(
        self,
        host: str,
        mode: Mode | None = None,
        path: str | None = None,
        *,
        theme: Theme | None = None,
        font_size: int | None = None,
        width: int | None = None,
        font: Font | None = None,
        line_height: int | None = None,
        clear: Collection[Field] = (),
    ) -> SiteConfig:
        """Add or update the rule of this host pattern and path; raise ConfigWriteError."""
        # The last rule with the same host and path is updated, else one is
        # appended. None leaves a field as it is; `clear` unsets fields, which
        # then come from the defaults.
        given = {
            "mode": mode, "theme": theme, "font_size": font_size, "width": width,
            "font": font, "line_height": line_height,
        }  # fmt: skip
        checked = self._check({"host": host, "path": path, **given})
        unknown = sorted(set(clear) - set(FIELDS))
        if unknown:
            raise self._refusal(f"cannot clear {', '.join(unknown)}")
        fields = {key: value for key, value in given.items() if value is not None}
        written = {"host": host} | ({} if path is None else {"path": path}) | fields

        def change(document: TOMLDocument, config: SiteConfig) -> _Problem | None:
            index = _last_index(config.rules, checked["host"], checked.get("path"))
            if index is None:
                _append_rule(document, written)
                return None
            return _update_rule(document, index, fields, clear)

        return self._edit(change)

    def remove_rule(self, index: int, *, expect: Rule | None = None) -> SiteConfig:
        """Remove rule `index` (as in `rule_index`); raise ConfigWriteError if refused."""
        # `expect`, the rule the user saw, refuses the removal if the file has
        # changed meanwhile and `index` now names another rule.

        def change(document: TOMLDocument, config: SiteConfig) -> _Problem | None:
            count = len(config.rules)
            if not 0 <= index < count:
                return _Problem(f"there is no rule {index + 1}; the file has {count} rules")
            if expect is not None and config.rules[index] != expect:
                return _Problem(f"rule {index + 1} changed in the file meanwhile; nothing removed")
            _delete_rule(document, index)
            return None

        return self._edit(change)

    def set_defaults(
        self,
        *,
        mode: Mode | None = None,
        theme: Theme | None = None,
        font_size: int | None = None,
        width: int | None = None,
        font: Font | None = None,
        line_height: int | None = None,
    ) -> SiteConfig:
        """Change the defaults (None: leave as is); raise ConfigWriteError if refused."""
        given = {
            "mode": mode, "theme": theme, "font_size": font_size, "width": width,
            "font": font, "line_height": line_height,
        }  # fmt: skip
        self._check(given)
        fields = {key: value for key, value in given.items() if value is not None}
        return self._edit(lambda document, _config: _set_defaults(document, fields))

    def ensure_exists(self) -> None:
        """Write the commented template if there is no file; raise ConfigWriteError if it cannot."""
        if not isinstance(_stat(self.path), _Stamp):
            self._edit(_unchanged)

    # -- the write path ----------------------------------------------------------------

    def _refusal(self, message: str) -> ConfigWriteError:
        """Return the error that refuses a change."""
        return ConfigWriteError(ConfigError(str(self.path), None, message))

    def _check(self, values: Mapping[str, object]) -> dict[str, object]:
        """Return the given values normalised; raise ConfigWriteError if one is invalid."""
        checked = _checked(values)
        if isinstance(checked, _Problem):
            raise self._refusal(checked.message)
        return checked

    def _edit(self, change: _Change) -> SiteConfig:
        """Apply a change under the write lock; raise ConfigWriteError if refused."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _exclusive_lock(self._lock_path):
                outcome = self._edit_locked(change)
        except OSError as error:
            outcome = _os_error(self.path, "write", error)
        if isinstance(outcome, ConfigError):
            raise ConfigWriteError(outcome)
        return outcome

    def _edit_locked(self, change: _Change) -> SiteConfig | ConfigError:
        """Apply the change to the file as it is now, again if it changes meanwhile."""
        for _ in range(_SAVE_ATTEMPTS):
            outcome = self._edit_once(change)
            if not isinstance(outcome, _Changed):
                return outcome
        message = "the file kept changing while it was being saved; nothing saved, try again"
        return ConfigError(str(self.path), None, message)

    def _edit_once(self, change: _Change) -> SiteConfig | ConfigError | _Changed:
        """Re-read the file, apply the change and replace the file; the lock is held."""
        snapshot = _read_file(self.path, self.limits)
        with self._state:
            old = self._settle(snapshot)
        if isinstance(old, ConfigError) or isinstance(snapshot, ConfigError):
            return old  # never overwrite a file the user has to fix first
        text = _TEMPLATE if snapshot.data is None else snapshot.data.decode("utf-8-sig")
        new_text = _edited(text, old, change, str(self.path))
        if isinstance(new_text, ConfigError):
            return new_text
        if new_text == text and snapshot.data is not None:
            return old  # nothing to write
        return self._replace(new_text, snapshot)

    def _replace(self, text: str, read: _Snapshot) -> SiteConfig | ConfigError | _Changed:
        """Check the new text and replace the version `read` with it; the lock is held."""
        new = parse_config(text, path=str(self.path), limits=self.limits)
        if isinstance(new, ConfigError):
            return ConfigError(str(self.path), None, f"not saved: {new.message}")
        stamp = _replace_file(self.path, text, read.mode, read.stamp)
        if stamp is None:
            return _CHANGED
        with self._state:
            self._config, self._error, self._stamp = new, None, stamp
        return new
