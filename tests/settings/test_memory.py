"""The site memory's files: per site, the latest pages' fingerprints."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from addon.settings.memory import (
    SiteCount,
    SiteMemoryStore,
    default_memory_dir,
    page_key,
)


def test_a_page_is_remembered_for_the_sites_other_pages_not_for_itself(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path)
    store.learn("example.com", "https://example.com/a", frozenset({1, 2}))
    store.learn("example.com", "https://example.com/b", frozenset({2, 3}))
    on_c = store.memory_for("example.com", "https://example.com/c")
    assert (on_c.pages, dict(on_c.counts)) == (2, {1: 1, 2: 2, 3: 1})
    on_a = store.memory_for("example.com", "https://example.com/a#top")  # a reload of a
    assert (on_a.pages, dict(on_a.counts)) == (1, {2: 1, 3: 1})
    assert store.memory_for("other.org", "https://other.org/").pages == 0


def test_learning_a_page_again_replaces_it(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path)
    store.learn("example.com", "https://example.com/a", frozenset({1}))
    store.learn("example.com", "https://example.com/a", frozenset({9}))
    memory = store.memory_for("example.com", "https://example.com/z")
    assert (memory.pages, dict(memory.counts)) == (1, {9: 1})


def test_the_memory_survives_a_restart_and_its_file_holds_no_words(tmp_path: Path) -> None:
    SiteMemoryStore(tmp_path).learn(
        "example.com", "https://example.com/secret-page?q=words", frozenset({7, 2**64 - 1})
    )
    memory = SiteMemoryStore(tmp_path).memory_for("example.com", "https://example.com/")
    assert dict(memory.counts) == {7: 1, 2**64 - 1: 1}
    [path] = tmp_path.iterdir()
    text = path.read_text()
    assert "secret" not in text and "words" not in text
    data = json.loads(text)
    assert data["site"] == "example.com"
    assert [key for key, _ in data["pages"]] == [page_key("https://example.com/secret-page?q=words")]


def test_only_the_latest_pages_of_a_site_are_kept(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path, max_pages=2)
    for n in range(3):
        store.learn("example.com", f"https://example.com/{n}", frozenset({n}))
    memory = SiteMemoryStore(tmp_path).memory_for("example.com", "https://example.com/x")
    assert dict(memory.counts) == {1: 1, 2: 1}


def test_past_the_site_limit_the_site_learned_from_longest_ago_is_forgotten(
    tmp_path: Path,
) -> None:
    store = SiteMemoryStore(tmp_path, max_sites=2)
    for n, site in enumerate(("a.example", "b.example")):
        store.learn(site, f"https://{site}/", frozenset({1}))
        path = store._path(site)
        os.utime(path, (1000 + n, 1000 + n))  # a.example learned from first
    store.learn("c.example", "https://c.example/", frozenset({1}))
    assert [count.site for count in store.counts()] == ["b.example", "c.example"]
    assert store.memory_for("a.example", "https://a.example/x").pages == 0


def test_counts_forget_and_forget_all(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path)
    store.learn("b.example", "https://b.example/1", frozenset({1}))
    store.learn("b.example", "https://b.example/2", frozenset({1}))
    store.learn("a.example", "https://a.example/1", frozenset({1}))
    assert store.counts() == [SiteCount("a.example", 1), SiteCount("b.example", 2)]
    assert store.forget("b.example") is True
    assert store.forget("b.example") is False
    assert store.counts() == [SiteCount("a.example", 1)]
    assert store.memory_for("b.example", "https://b.example/3").pages == 0
    assert store.forget_all() == 1
    assert store.counts() == []
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_or_foreign_file_is_no_memory_and_is_replaced(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path)
    store.learn("example.com", "https://example.com/a", frozenset({1}))
    path = store._path("example.com")
    for damage in (b"{not json", b'{"format": 99}', b"[]", b'{"format":1,"site":"x","pages":[]}'):
        path.write_bytes(damage)
        fresh = SiteMemoryStore(tmp_path)
        assert fresh.memory_for("example.com", "https://example.com/b").pages == 0
        assert fresh.counts() == []
    fresh.learn("example.com", "https://example.com/b", frozenset({5}))
    assert dict(SiteMemoryStore(tmp_path).memory_for("example.com", "/").counts) == {5: 1}


def test_a_write_that_fails_keeps_the_memory_and_leaves_no_partial_file(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store = SiteMemoryStore(blocker / "memory")
    store.learn("example.com", "https://example.com/a", frozenset({1}))  # logged, not raised
    assert store.memory_for("example.com", "https://example.com/b").pages == 1
    assert blocker.read_text() == "not a directory"


def test_writes_are_atomic_renames_with_no_temporary_left(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path)
    for n in range(20):
        store.learn("example.com", f"https://example.com/{n}", frozenset(range(n, n + 50)))
    assert [path.suffix for path in tmp_path.iterdir()] == [".json"]


def test_threads_learning_at_once_lose_no_page(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path)

    def learn(n: int) -> None:
        store.learn("example.com", f"https://example.com/{n}", frozenset({n}))

    threads = [threading.Thread(target=learn, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert SiteMemoryStore(tmp_path).memory_for("example.com", "/x").pages == 20


def test_only_the_sites_used_last_are_held_in_memory(tmp_path: Path) -> None:
    store = SiteMemoryStore(tmp_path, loaded_sites=2)
    for site in ("a.example", "b.example", "c.example"):
        store.learn(site, f"https://{site}/", frozenset({1}))
    assert list(store._sites) == ["b.example", "c.example"]
    assert store.memory_for("a.example", "https://a.example/x").pages == 1  # read again


def test_the_default_directory_is_the_users_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_memory_dir() == tmp_path / "plainview" / "site-memory"
