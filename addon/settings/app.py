"""The pages of the reserved settings host: settings, "why this content", and toggles.

Requests come in as plain data and replies go out as plain data; the proxy
turns them into mitmproxy objects. State changes only by POST with the
secret token and a same-origin check (see `addon.settings.guard`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from addon.proxy.page_switch import BOOKMARKLET, with_marker
from addon.proxy.recent import PageRecord, RecentPages
from addon.render.chart import build_chart, summarize
from addon.render.pages import (
    PageStyle,
    Rendered,
    content_security_policy,
    render_message,
    render_toggled,
)
from addon.render.pages import render_settings as render_settings_page
from addon.render.pages import render_why as render_why_page
from addon.render.why import block_runs
from addon.settings.guard import SETTINGS_ORIGINS, refuse_settings_post, refuse_toggle_post
from addon.settings.memory import SiteMemoryStore
from addon.settings.rules import (
    FONT_SIZE_MAX,
    FONT_SIZE_MIN,
    FONTS,
    LINE_HEIGHT_MAX,
    LINE_HEIGHT_MIN,
    MODES,
    THEMES,
    WIDTH_MAX,
    WIDTH_MIN,
    ConfigStore,
    ConfigWriteError,
    Field,
    Font,
    Rule,
    Theme,
)

S = TypeVar("S", bound=str)

# Accepted ranges of the number fields (percent and em), as the config file's.
FONT_SIZES = range(FONT_SIZE_MIN, FONT_SIZE_MAX + 1)
WIDTHS = range(WIDTH_MIN, WIDTH_MAX + 1)
LINE_HEIGHTS = range(LINE_HEIGHT_MIN, LINE_HEIGHT_MAX + 1)
# Forms are tiny; anything larger is not ours.
MAX_FORM_BYTES = 16 * 1024
SETTINGS_FORM_ACTION = " ".join(["'self'", *sorted(SETTINGS_ORIGINS)])


@dataclass(frozen=True, slots=True)
class WebRequest:
    """One request to the settings host; header names are lowercase."""

    method: str
    scheme: str
    path: str  # with the query
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""


@dataclass(frozen=True, slots=True)
class WebReply:
    """One reply from the settings host."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""


@dataclass(frozen=True, slots=True)
class RuleView:
    """One site rule as the settings page shows it."""

    index: int
    host: str
    path: str
    mode: str
    theme: str
    font_size: int | None
    width: int | None
    font: str = ""
    line_height: int | None = None


class FormError(Exception):
    """A submitted form has a field that is missing or out of range."""


def html_reply(status: int, page: Rendered, *, back_to: str = "") -> WebReply:
    """Return an HTML page with Plainview's strict headers; its forms may lead on (a
    redirect after the POST) to the origin `back_to` as well as to the settings host."""
    # form-action also rules the redirect after a form's POST.
    form_action = f"{SETTINGS_FORM_ACTION} {back_to}" if back_to else SETTINGS_FORM_ACTION
    headers = (
        ("content-type", "text/html; charset=utf-8"),
        ("content-security-policy", content_security_policy(page.style_source, form_action)),
        # same-origin: the settings forms then send their real Origin header.
        ("referrer-policy", "same-origin"),
        ("cache-control", "no-store"),
        ("x-content-type-options", "nosniff"),
    )
    return WebReply(status, headers, page.body)


def redirect(location: str) -> WebReply:
    """Return a 303 See Other to `location`."""
    return WebReply(303, (("location", location), ("cache-control", "no-store")))


def read_form(request: WebRequest) -> dict[str, str]:
    """Return the first value of each urlencoded form field."""
    if len(request.body) > MAX_FORM_BYTES:
        raise FormError("the form is too large")
    text = request.body.decode("utf-8", errors="replace")
    return {name: values[0] for name, values in parse_qs(text, keep_blank_values=True).items()}


def choose(form: Mapping[str, str], name: str, allowed: tuple[S, ...]) -> S:
    """Return a field that must be one of `allowed`."""
    value = form.get(name, "")
    for option in allowed:
        if value == option:
            return option
    raise FormError(f"{name} must be one of {', '.join(allowed)}")


def number(form: Mapping[str, str], name: str, allowed: range) -> int | None:
    """Return an optional whole-number field within `allowed` (None when blank)."""
    text = form.get(name, "").strip()
    if not text:
        return None
    # ASCII digits only: isdigit() also accepts "²" and "①", which int() refuses.
    if not (text.isascii() and text.isdigit()) or int(text) not in allowed:
        raise FormError(f"{name} must be a whole number from {allowed.start} to {allowed.stop - 1}")
    return int(text)


@dataclass(frozen=True, slots=True)
class StyleForm:
    """The theme, text size, width, font and line height a form sets; `blank` names the
    fields left empty."""

    theme: Theme | None
    font_size: int | None
    width: int | None
    font: Font | None
    line_height: int | None
    blank: tuple[Field, ...]

    def values(self) -> dict[str, Any]:
        """Return the fields as the store's keyword arguments (None: leave as is)."""
        return {
            "theme": self.theme, "font_size": self.font_size, "width": self.width,
            "font": self.font, "line_height": self.line_height,
        }  # fmt: skip


def style_form(form: Mapping[str, str]) -> StyleForm:
    """Read the theme, text size, width, font and line height fields (each may be blank)."""
    theme = choose(form, "theme", THEMES) if form.get("theme") else None
    font = choose(form, "font", FONTS) if form.get("font") else None
    font_size = number(form, "font_size", FONT_SIZES)
    width = number(form, "width", WIDTHS)
    line_height = number(form, "line_height", LINE_HEIGHTS)
    values: dict[Field, object] = {
        "theme": theme, "font_size": font_size, "width": width,
        "font": font, "line_height": line_height,
    }  # fmt: skip
    blank = tuple(name for name, value in values.items() if value is None)
    return StyleForm(theme, font_size, width, font, line_height, blank)


def switch_of(record: PageRecord) -> tuple[str, str]:
    """Return the one-time switch a recent page offers, as (label, URL): "Read this page"
    for one shown as the original, "Show original" for a reader view, else none."""
    if record.action == "original":
        return "Read this page", with_marker(record.url, "reader")
    if record.action == "reader":
        return "Show original", with_marker(record.url, "original")
    return "", ""


class SettingsApp:
    """Answer requests to the settings host over one config store."""

    def __init__(
        self,
        store: ConfigStore,
        recent: RecentPages,
        secret: str,
        mode_override: str = "",
        memory: SiteMemoryStore | None = None,
    ) -> None:
        self.store = store
        self.recent = recent
        self.secret = secret
        self.mode_override = mode_override
        self.memory = memory  # None: the site memory is off

    def handle(self, request: WebRequest) -> WebReply:
        """Route one request."""
        # The path as sent: urlsplit() would read "//[x" as a host and raise.
        route = request.path.partition("?")[0]
        pages: dict[str, Callable[[WebRequest], WebReply]] = {
            "/": self.settings_page,
            "/why": self.why_page,
        }
        actions: dict[str, Callable[[dict[str, str]], None]] = {
            "/defaults": self.save_defaults,
            "/rules": self.save_rule,
            "/rules/remove": self.remove_rule,
            "/memory/forget": self.forget_site,
            "/memory/forget-all": self.forget_all_sites,
        }
        if route in pages and request.method in ("GET", "HEAD"):
            return pages[route](request)
        if route == "/toggle" and request.method == "POST":
            return self.toggle(request)
        if route == "/toggle/undo" and request.method == "POST":
            return self.undo_toggle(request)
        if route == "/style" and request.method == "POST":
            return self.restyle(request)
        if route in actions and request.method == "POST":
            return self.act(request, actions[route])
        if route in pages or route in actions or route in ("/toggle", "/toggle/undo", "/style"):
            return self.message(405, "Method not allowed", f"{request.method} is not used here.")
        return self.message(404, "Not found", "There is no such Plainview page.")

    # -- pages -----------------------------------------------------------------------

    def style(self) -> PageStyle:
        """Return the look of Plainview's own pages: the default theme and sizes."""
        defaults = self.store.current().defaults
        return PageStyle(defaults.theme, defaults.font_size, defaults.width)  # UI: sans

    def message(self, status: int, title: str, text: str, back_url: str = "/") -> WebReply:
        """Return a short page with one message."""
        return html_reply(status, render_message(self.style(), title, text, back_url))

    def settings_page(self, request: WebRequest, notice: str = "", status: int = 200) -> WebReply:
        """Show defaults, rules, the config error if any, and the recent pages."""
        config = self.store.current()
        query = parse_qs(request.path.partition("?")[2])
        rules = rule_page(rule_views(config.rules), query.get("rules", ["1"])[0])
        page = render_settings_page(
            self.style(),
            error=self.store.error,
            notice=notice,
            config_path=str(self.store.path),
            mode_override=self.mode_override,
            modes=MODES,
            themes=THEMES,
            defaults=config.defaults,
            limits={
                "font_min": FONT_SIZES.start,
                "font_max": FONT_SIZES.stop - 1,
                "width_min": WIDTHS.start,
                "width_max": WIDTHS.stop - 1,
                "line_min": LINE_HEIGHTS.start,
                "line_max": LINE_HEIGHTS.stop - 1,
            },
            fonts=FONTS,
            rules=rules.views,
            rule_pages=rules,
            recent=[(record, switch_of(record)) for record in self.recent.newest()],
            bookmarklet=BOOKMARKLET,
            memory_on=self.memory is not None,
            memory_sites=[] if self.memory is None else self.memory.counts(),
            memory_max_pages=0 if self.memory is None else self.memory.max_pages,
            token=self.secret,
        )
        return html_reply(status, page)

    def why_page(self, request: WebRequest) -> WebReply:
        """Show how one recent page's content was chosen."""
        query = parse_qs(request.path.partition("?")[2])
        record = self.recent.get(query.get("id", [""])[0])
        if record is None:
            return self.message(404, "Page not found", "That page is no longer in the recent list.")
        diagnostics = record.diagnostics
        page = render_why_page(
            self.style(),
            record=record,
            chart=None if diagnostics is None else build_chart(diagnostics),
            summary="" if diagnostics is None else summarize(diagnostics),
            params=[] if diagnostics is None else sorted(diagnostics.params.items()),
            runs=[] if diagnostics is None else block_runs(diagnostics),
            left_out=[] if diagnostics is None else diagnostics.left_out,
            settings_url="/",
        )
        return html_reply(200, page)

    # -- changes ---------------------------------------------------------------------

    def settings_form(self, request: WebRequest) -> dict[str, str] | WebReply:
        """Return a settings POST's form, or the answer refusing it."""
        try:
            form = read_form(request)
        except FormError as error:
            return self.message(400, "Not saved", str(error))
        refusal = refuse_settings_post(
            form.get("token", ""),
            self.secret,
            request.headers.get("origin"),
            request.headers.get("sec-fetch-site"),
        )
        if refusal:
            return self.message(403, "Refused", f"Not saved: {refusal}.")
        return form

    def act(self, request: WebRequest, action: Callable[[dict[str, str]], None]) -> WebReply:
        """Check a settings POST, apply it, and go back to the settings page."""
        form = self.settings_form(request)
        if isinstance(form, WebReply):
            return form
        try:
            action(form)
        except (FormError, ConfigWriteError) as error:
            return self.settings_page(request, f"Not saved: {error}", 400)
        return redirect("/")

    def save_defaults(self, form: dict[str, str]) -> None:
        """Change the defaults (blank fields stay as they are)."""
        style = style_form(form)
        self.store.set_defaults(mode=choose(form, "mode", MODES), **style.values())

    def save_rule(self, form: dict[str, str]) -> None:
        """Add or change the rule of one host and path; blank fields follow the defaults."""
        host = form.get("host", "").strip()
        if not host:
            raise FormError("host is missing")
        style = style_form(form)
        mode = choose(form, "mode", MODES) if form.get("mode") else None
        blank: tuple[Field, ...] = ("mode",) if mode is None else ()
        self.store.set_rule(
            host,
            mode,
            form.get("path", "").strip() or None,
            clear=blank + style.blank,
            **style.values(),
        )

    def remove_rule(self, form: dict[str, str]) -> None:
        """Remove the rule the user saw at this position (refused if the file changed)."""
        rules = self.store.current().rules
        index = number(form, "index", range(len(rules)))
        if index is None:
            raise FormError("index is missing")
        shown = (form.get("host", ""), form.get("path", "") or None)
        if (rules[index].host, rules[index].path) != shown:
            raise FormError("the rules changed meanwhile; nothing removed")
        self.store.remove_rule(index, expect=rules[index])

    def forget_site(self, form: dict[str, str]) -> None:
        """Forget one site's memory."""
        if self.memory is None:
            raise FormError("the site memory is off")
        site = form.get("site", "").strip().lower()
        if not site:
            raise FormError("site must name a site")
        self.memory.forget(site)

    def forget_all_sites(self, _form: dict[str, str]) -> None:
        """Forget every site's memory."""
        if self.memory is None:
            raise FormError("the site memory is off")
        self.memory.forget_all()

    def page_form(self, request: WebRequest) -> dict[str, str] | WebReply:
        """Return the form a reader page posted, or the answer refusing it: the site's
        token, from that site's origin or the settings host's."""
        try:
            form = read_form(request)
        except FormError as error:
            return self.message(400, "Not saved", str(error))
        refusal = refuse_toggle_post(
            form.get("token", ""), self.secret, request.headers.get("origin"), form.get("url", "")
        )
        if refusal:
            return self.message(403, "Refused", f"Not saved: {refusal}.")
        return form

    def toggle(self, request: WebRequest) -> WebReply:
        """Set a reader page's site to always reader or always original, then go back."""
        form = self.page_form(request)
        if isinstance(form, WebReply):
            return form
        url = form.get("url", "")
        host = urlsplit(url).hostname
        mode = form.get("mode", "")
        if host is None or mode not in ("reader", "original"):
            return self.message(400, "Not saved", "mode must be reader or original.")
        previous = host_rule_mode(self.store.current().rules, host)
        try:
            self.store.set_rule(host, choose(form, "mode", MODES))
        except ConfigWriteError as error:
            return self.message(409, "Not saved", str(error), back_url=url)
        if mode == "reader":  # the page itself shows it, with the rule's notice
            return redirect(url)
        # Every page of the site now goes out as it came: say so, and offer the way back.
        token = self.secret
        page = render_toggled(self.style(), host=host, url=url, previous=previous, token=token)
        return html_reply(200, page, back_to=origin_of(url))

    def restyle(self, request: WebRequest) -> WebReply:
        """Save a reader page's "Aa" panel for its site or for every site, then go back."""
        form = self.page_form(request)
        if isinstance(form, WebReply):
            return form
        try:
            style = style_form(form)
        except FormError as error:
            return self.message(400, "Not saved", str(error))
        url = form.get("url", "")
        host, scope = safe_hostname(url), form.get("scope", "")
        if host is None or scope not in ("site", "all"):
            return self.message(400, "Not saved", "scope must be site or all.")
        try:
            self._save_style(url if scope == "site" else None, style)
        except ConfigWriteError as error:
            return self.message(409, "Not saved", str(error), back_url=url)
        return redirect(url)

    def _save_style(self, url: str | None, style: StyleForm) -> None:
        """Save the panel's choices in the rule the page follows (a new rule for its host if
        none), or as the defaults (None)."""
        if url is None:
            self.store.set_defaults(**style.values())
            return
        # The rule the page follows, changed in place: a new host rule after it
        # would win and take its mode away (the last match wins).
        parts = urlsplit(url)
        config = self.store.current()
        index = config.settings_for(parts.netloc, parts.path or "/").rule_index
        host, path = (parts.hostname or "", None) if index is None else (
            config.rules[index].host, config.rules[index].path
        )
        self.store.set_rule(host, None, path, **style.values())

    def undo_toggle(self, request: WebRequest) -> WebReply:
        """Put a site's rule back as it was before "Always original", then go to the page."""
        form = self.settings_form(request)
        if isinstance(form, WebReply):
            return form
        url, previous = form.get("url", ""), form.get("previous", "")
        host = safe_hostname(url)
        if host is None or previous not in ("", UNSET_MODE, *MODES):
            return self.message(400, "Not undone", "The form does not name a site and a mode.")
        rules = self.store.current().rules
        index = host_rule_index(rules, host)
        if index is None or rules[index].mode != "original":
            return self.message(409, "Not undone", f"The rule for {host} changed meanwhile.", url)
        try:
            self._restore(index, rules[index], previous)
        except ConfigWriteError as error:
            return self.message(409, "Not undone", str(error), back_url=url)
        return redirect(url)

    def _restore(self, index: int, rule: Rule, previous: str) -> None:
        """Put back a host rule's earlier mode: none (no rule), unset, or a mode."""
        if previous == "":
            self.store.remove_rule(index, expect=rule)
        elif previous == UNSET_MODE:
            unset: tuple[Field, ...] = ("mode",)
            self.store.set_rule(rule.host, clear=unset)
        else:
            self.store.set_rule(rule.host, choose({"mode": previous}, "mode", MODES))


# The host rule's mode before a toggle, when the rule was there but set no mode.
UNSET_MODE = "default"


def host_rule_index(rules: Sequence[Rule], host: str) -> int | None:
    """Return the index of the last rule of exactly this host and no path (a toggle's)."""
    matching = [i for i, rule in enumerate(rules) if (rule.host, rule.path) == (host, None)]
    return matching[-1] if matching else None


def host_rule_mode(rules: Sequence[Rule], host: str) -> str:
    """Return what a toggle would replace: "" (no host rule), UNSET_MODE, or its mode."""
    index = host_rule_index(rules, host)
    if index is None:
        return ""
    return rules[index].mode or UNSET_MODE


def origin_of(url: str) -> str:
    """Return a URL's origin (scheme://host[:port]), as a CSP source."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def safe_hostname(url: str) -> str | None:
    """Return a URL's host name, or None when it has none or cannot be read."""
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


# Rules the settings page lists at once: 10,000 made a 13 MB page.
RULES_PER_PAGE = 100


@dataclass(frozen=True, slots=True)
class RulePage:
    """One page of the rules table: its rules, and its number among how many."""

    views: list[RuleView]
    number: int
    count: int


def rule_page(views: list[RuleView], asked: str, *, size: int = RULES_PER_PAGE) -> RulePage:
    """Return the asked page of the rules (1 when not a number, the last past the end)."""
    count = max(1, -(-len(views) // size))
    number = min(max(int(asked), 1), count) if asked.isascii() and asked.isdigit() else 1
    return RulePage(views[(number - 1) * size : number * size], number, count)


def rule_views(rules: Sequence[Rule]) -> list[RuleView]:
    """Describe the config's rules for the settings page."""
    return [
        RuleView(
            i,
            r.host,
            r.path or "",
            r.mode or "",
            r.theme or "",
            r.font_size,
            r.width,
            r.font or "",
            r.line_height,
        )
        for i, r in enumerate(rules)
    ]
