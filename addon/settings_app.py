"""The pages of the reserved settings host: settings, "why this content", and toggles.

Requests come in as plain data and replies go out as plain data; the proxy
turns them into mitmproxy objects. State changes only by POST with the
secret token and a same-origin check (see `addon.guard`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from addon.chart import build_chart, summarize
from addon.guard import SETTINGS_ORIGINS, refuse_settings_post, refuse_toggle_post
from addon.recent import RecentPages
from addon.render import THEMES, PageStyle, Rendered, content_security_policy, render_message
from addon.render import render_settings as render_settings_page
from addon.render import render_why as render_why_page
from addon.siteconfig import ConfigStore

MODES = ("reader", "original", "auto")
# Accepted ranges of the number fields (CSS px and em).
FONT_SIZES = range(10, 41)
WIDTHS = range(20, 121)
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


class FormError(Exception):
    """A submitted form has a field that is missing or out of range."""


def html_reply(status: int, page: Rendered) -> WebReply:
    """Return an HTML page with Plainview's strict headers."""
    headers = (
        ("content-type", "text/html; charset=utf-8"),
        ("content-security-policy", content_security_policy(page.style_source, SETTINGS_FORM_ACTION)),
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


def choose(form: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str:
    """Return a field that must be one of `allowed`."""
    value = form.get(name, "")
    if value not in allowed:
        raise FormError(f"{name} must be one of {', '.join(allowed)}")
    return value


def number(form: Mapping[str, str], name: str, allowed: range) -> int | None:
    """Return an optional whole-number field within `allowed` (None when blank)."""
    text = form.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) not in allowed:
        raise FormError(f"{name} must be a whole number from {allowed.start} to {allowed.stop - 1}")
    return int(text)


def style_changes(form: Mapping[str, str]) -> dict[str, object]:
    """Return the theme, font size and width the form sets (blank fields are left out)."""
    changes: dict[str, object] = {}
    if form.get("theme"):
        changes["theme"] = choose(form, "theme", THEMES)
    font_size = number(form, "font_size", FONT_SIZES)
    if font_size is not None:
        changes["font_size"] = font_size
    width = number(form, "width", WIDTHS)
    if width is not None:
        changes["width"] = width
    return changes


class SettingsApp:
    """Answer requests to the settings host over one config store."""

    def __init__(
        self, store: ConfigStore, recent: RecentPages, secret: str, mode_override: str = ""
    ) -> None:
        self.store = store
        self.recent = recent
        self.secret = secret
        self.mode_override = mode_override

    def handle(self, request: WebRequest) -> WebReply:
        """Route one request."""
        route = urlsplit(request.path).path
        pages: dict[str, Callable[[WebRequest], WebReply]] = {
            "/": self.settings_page,
            "/why": self.why_page,
        }
        actions: dict[str, Callable[[dict[str, str]], None]] = {
            "/defaults": self.save_defaults,
            "/rules": self.save_rule,
            "/rules/remove": self.remove_rule,
        }
        if route in pages and request.method in ("GET", "HEAD"):
            return pages[route](request)
        if route == "/toggle" and request.method == "POST":
            return self.toggle(request)
        if route in actions and request.method == "POST":
            return self.act(request, actions[route])
        if route in pages or route in actions or route == "/toggle":
            return self.message(405, "Method not allowed", f"{request.method} is not used here.")
        return self.message(404, "Not found", "There is no such Plainview page.")

    # -- pages -----------------------------------------------------------------------

    def style(self) -> PageStyle:
        """Return the look of Plainview's own pages: the default theme and sizes."""
        defaults = self.store.current().defaults
        return PageStyle(defaults.theme, defaults.font_size, defaults.width)

    def message(self, status: int, title: str, text: str, back_url: str = "/") -> WebReply:
        """Return a short page with one message."""
        return html_reply(status, render_message(self.style(), title, text, back_url))

    def settings_page(self, request: WebRequest, notice: str = "", status: int = 200) -> WebReply:
        """Show defaults, rules, the config error if any, and the recent pages."""
        config = self.store.current()
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
            },
            rules=rule_views(config.rules),
            recent=self.recent.newest(),
            token=self.secret,
        )
        return html_reply(status, page)

    def why_page(self, request: WebRequest) -> WebReply:
        """Show how one recent page's content was chosen."""
        query = parse_qs(urlsplit(request.path).query)
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
            settings_url="/",
        )
        return html_reply(200, page)

    # -- changes ---------------------------------------------------------------------

    def act(self, request: WebRequest, action: Callable[[dict[str, str]], None]) -> WebReply:
        """Check a settings POST, apply it, and go back to the settings page."""
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
        try:
            action(form)
        except (FormError, ValueError, IndexError) as error:
            return self.settings_page(request, f"Not saved: {error}", 400)
        return redirect("/")

    def save_defaults(self, form: dict[str, str]) -> None:
        """Change the defaults."""
        self.store.set_defaults(mode=choose(form, "mode", MODES), **style_changes(form))

    def save_rule(self, form: dict[str, str]) -> None:
        """Add or change the rule of one host (and path prefix)."""
        host = form.get("host", "").strip().lower()
        if not host or any(c in host for c in " /?#"):
            raise FormError("host must be a host name such as example.com or *.example.com")
        path = form.get("path", "").strip() or None
        mode = choose(form, "mode", MODES)
        self.store.set_rule(host, mode, path, **style_changes(form))  # type: ignore[arg-type]

    def remove_rule(self, form: dict[str, str]) -> None:
        """Remove one rule by its position."""
        index = number(form, "index", range(len(self.store.current().rules)))
        if index is None:
            raise FormError("index is missing")
        self.store.remove_rule(index)

    def toggle(self, request: WebRequest) -> WebReply:
        """Set a reader page's site to always reader or always original, then go back."""
        try:
            form = read_form(request)
        except FormError as error:
            return self.message(400, "Not saved", str(error))
        url = form.get("url", "")
        refusal = refuse_toggle_post(
            form.get("token", ""), self.secret, request.headers.get("origin"), url
        )
        if refusal:
            return self.message(403, "Refused", f"Not saved: {refusal}.")
        mode = form.get("mode", "")
        host = urlsplit(url).hostname
        if mode not in ("reader", "original") or host is None:
            return self.message(400, "Not saved", "mode must be reader or original.")
        self.store.set_rule(host, mode)
        return redirect(url)


def rule_views(rules: object) -> list[RuleView]:
    """Describe the config's rules for the settings page."""
    views: list[RuleView] = []
    for index, rule in enumerate(rules):  # type: ignore[call-overload]
        views.append(
            RuleView(
                index, rule.host, rule.path or "", rule.mode, rule.theme or "", rule.font_size,
                rule.width,
            )  # fmt: skip
        )
    return views
