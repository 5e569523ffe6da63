"""Faults injected into the site config and the settings page, and what must survive them.

Racing writers (threads, processes, the settings page's toggles), hand edits
saved in the middle of a write, writers killed mid-save, failing disks,
hostile files and forged posts. Each test names the faults it injects in its
tables and loops; docs/reliability.md counts them.
"""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import random
import signal
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
from addon.settings.rules import ConfigStore, ConfigWriteError, Rule, SiteConfig, parse_config

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


def hand_edit(path: Path, text: str | bytes) -> None:
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
    hand_edit(path, GOOD)
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
        reply = post(app, "/toggle", form, {"origin": "null", "sec-fetch-site": "cross-site"})
        assert reply.status == 303, reply.body[:300]


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
    hand_edit(store.path, content)
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
    assert post(app, "/toggle", form, {"origin": "null"}).status == 409
    assert store.path.read_bytes() == content
    hand_edit(store.path, GOOD.replace('mode = "reader"', 'mode = "original"'))
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
        {"origin": "null", "sec-fetch-site": "cross-site"},
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
# Reader pages send their toggles with Origin: null (no-referrer); the settings forms never do.
SETTINGS_ONLY = {"opaque origin (sandboxed frame)"}


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


@pytest.mark.parametrize("endpoint", VALID)
def test_each_endpoint_changes_the_file_when_the_post_is_genuine(
    app: SettingsApp, store: ConfigStore, endpoint: str
) -> None:
    # The control for the forgeries above: the same request unforged does change the file.
    before = store.path.read_bytes()
    form, headers = VALID[endpoint]
    assert post(app, endpoint, form, headers).status == 303
    assert store.path.read_bytes() != before


@pytest.mark.parametrize("endpoint", VALID)
def test_a_get_never_changes_anything(app: SettingsApp, store: ConfigStore, endpoint: str) -> None:
    before = store.path.read_bytes()
    form, headers = VALID[endpoint]
    reply = app.handle(WebRequest("GET", "http", f"{endpoint}?{urlencode(form)}", headers))
    assert reply.status == 405
    assert store.path.read_bytes() == before
