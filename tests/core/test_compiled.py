"""Tests for addon.core.compiled: the one registry of compiled functions and their twins."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from addon.core import compiled, dom

CORE = Path(compiled.__file__).parent
GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*/source.html"))
# Module set-up calls, not functions with a twin.
SETUP = {"set_tables", "set_line_tags"}


def _defined(pyx: Path) -> set[str]:
    """Return the public functions a Cython module defines."""
    names = set(re.findall(r"^def ([a-z]\w*)\(", pyx.read_text(), re.M))
    return names - SETUP


def test_the_registry_lists_every_compiled_function_and_only_those() -> None:
    defined = {name: pyx.stem for pyx in CORE.glob("_*.pyx") for name in _defined(pyx)}
    assert defined == compiled.FUNCTIONS


def test_every_registered_function_is_built_and_picked() -> None:
    for name, module in compiled.FUNCTIONS.items():
        loaded = compiled.compiled_module(name)
        assert loaded is not None and loaded.__name__ == f"addon.core.{module}", name
        assert compiled.pick(name, len) is getattr(loaded, name)


def test_no_core_module_loads_a_compiled_module_but_the_registry() -> None:
    loaders = [
        path.relative_to(CORE).as_posix()
        for path in CORE.rglob("*.py")
        if path.name != "compiled.py"
        and re.search(r"from addon\.core import _|import_module|find_spec", path.read_text())
    ]
    assert loaders == []


def test_a_named_twin_is_picked_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.TWINS, "word_count, build_lines")
    assert compiled.pick("word_count", len) is len
    assert compiled.pick_or_none("build_lines") is None
    assert compiled.pick_or_none("text_length") is not None


def test_no_extensions_picks_every_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.NO_EXTENSIONS, "1")
    assert all(compiled.pick_or_none(name) is None for name in compiled.FUNCTIONS)
    monkeypatch.setenv(compiled.NO_EXTENSIONS, "0")
    assert all(compiled.pick_or_none(name) is not None for name in compiled.FUNCTIONS)


def test_an_unknown_twin_name_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.TWINS, "word_count,wordcount")
    with pytest.raises(ValueError, match="PLAINVIEW_TWINS names no compiled function: wordcount"):
        compiled.pick("word_count", len)


_EXTRACT = """
import json, sys
from pathlib import Path
from addon.core import Article, dom, extract
out = {"text_length_is_python": dom._TEXT_LENGTH is None, "pages": {}}
for path in sys.argv[1:]:
    result = extract(Path(path).read_bytes(), url="http://example.org/")
    out["pages"][path] = [result.title, result.html] if isinstance(result, Article) else None
print(json.dumps(out))
"""


def _extract_in(env: dict[str, str], paths: list[Path]) -> dict[str, object]:
    """Extract the pages in a fresh interpreter with ENV set; return what it found."""
    argv = [sys.executable, "-c", _EXTRACT, *map(str, paths)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True, timeout=300)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_pure_python_build_extracts_the_golden_pages_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert dom._TEXT_LENGTH is not None  # this process runs the compiled functions
    monkeypatch.delenv(compiled.TWINS, raising=False)
    plain = _extract_in({**os.environ, compiled.NO_EXTENSIONS: "1"}, GOLDEN)
    fast = _extract_in({**os.environ, compiled.NO_EXTENSIONS: "0"}, GOLDEN)
    assert plain["text_length_is_python"] is True and fast["text_length_is_python"] is False
    assert plain["pages"] == fast["pages"]
    assert sum(page is not None for page in fast["pages"].values()) >= 20  # type: ignore[attr-defined]
