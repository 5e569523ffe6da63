"""Who may change settings: the per-install secret token and the Origin checks."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

SETTINGS_HOST = "plainview.proxy"
SETTINGS_ORIGINS = frozenset({f"http://{SETTINGS_HOST}", f"https://{SETTINGS_HOST}"})
# secrets.token_urlsafe(32) gives 43 characters; anything much shorter was not made here.
MIN_SECRET_CHARS = 32


class SecretError(Exception):
    """The secret token file exists but cannot be used."""


def load_or_create_secret(path: Path) -> str:
    """Return the per-install secret, creating its file (mode 0600) on first run."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_secret(path)
    secret = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(secret + "\n")
    return secret


def _read_secret(path: Path) -> str:
    """Read an existing secret file, refusing one that is too short to be ours."""
    try:
        secret = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise SecretError(f"{path}: cannot read the secret token: {error}") from error
    if len(secret) < MIN_SECRET_CHARS:
        raise SecretError(
            f"{path}: the secret token is too short; delete the file to make a new one"
        )
    return secret


def site_token(secret: str, host: str) -> str:
    """Return the token that lets reader pages of one host toggle that host's rule only."""
    message = b"toggle:" + host.lower().encode("utf-8")
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def origin_of(url: str) -> str:
    """Return the serialised origin of an absolute http(s) URL, or "" for anything else."""
    try:  # a bracketed host that is no IPv6 address ("http://[x/"), a port out of range
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    default = 80 if parts.scheme == "http" else 443
    suffix = "" if port in (None, default) else f":{port}"
    return f"{parts.scheme}://{parts.hostname}{suffix}"


def refuse_settings_post(
    token: str, secret: str, origin: str | None, fetch_site: str | None
) -> str:
    """Return why a POST from the settings page must be refused, or "" to accept it."""
    if fetch_site is not None and fetch_site != "same-origin":
        return f"the request came from another site (Sec-Fetch-Site: {fetch_site})"
    if origin is not None and origin not in SETTINGS_ORIGINS:
        return f"the request came from another origin ({origin})"
    if not hmac.compare_digest(token.encode("utf-8"), secret.encode("utf-8")):
        return "the form token is missing or wrong"
    return ""


def refuse_toggle_post(token: str, secret: str, origin: str | None, target_url: str) -> str:
    """Return why a reader page's toggle must be refused, or "" to accept it.

    Reader pages live on the site's own origin, so the POST is cross-site by
    nature; it is accepted only with the site-scoped token of the target's
    host, from that origin or the settings origin. Never from "null": any page
    can send it (a sandboxed frame, a no-referrer policy).
    """
    target = origin_of(target_url)
    if not target:
        return "the page address is not an http(s) URL"
    host = urlsplit(target_url).hostname  # origin_of read it whole
    if host is None:
        return "the page address is not an http(s) URL"
    if origin is not None and origin not in {target, *SETTINGS_ORIGINS}:
        return f"the request came from another origin ({origin})"
    given = token.encode("utf-8")
    valid = (site_token(secret, host).encode("utf-8"), secret.encode("utf-8"))
    if not any(hmac.compare_digest(given, expected) for expected in valid):
        return "the form token is missing or wrong"
    return ""
