"""The house: tests/ mirrors addon/ one file to one, and the rooms keep their imports apart."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADDON = ROOT / "addon"
TESTS = ROOT / "tests"
# What spans the rooms: the browser and proxy tests, the gates, the tooling's own tests.
SPANNING = ("e2e", "reliability", "tooling")


def _modules() -> dict[Path, Path]:
    """Map each product module (and each compiled module, by its name without "_") to the
    test file that must test it."""
    wanted = {}
    for path in ADDON.rglob("*.py"):
        if path.name != "__init__.py":
            relative = path.parent.relative_to(ADDON)
            wanted[TESTS / relative / f"test_{path.stem}.py"] = path
    for path in ADDON.rglob("_*.pyx"):
        # A compiled module is tested beside its twins' module, or on its own.
        name = f"test_{path.stem[1:]}.py"
        beside = sorted((TESTS / path.parent.relative_to(ADDON)).rglob(name))
        wanted.setdefault(beside[0] if beside else TESTS / "core" / name, path)
    return wanted


def _mirroring_tests() -> list[Path]:
    """Return the test files that must mirror a module: all but those that span the rooms."""
    return [
        path
        for path in TESTS.rglob("test_*.py")
        if path.relative_to(TESTS).parts[0] not in SPANNING
    ]


def test_every_module_has_its_test_file() -> None:
    missing = [
        f"{module.relative_to(ROOT)} -> {test.relative_to(ROOT)}"
        for test, module in _modules().items()
        if not test.is_file()
    ]
    assert missing == []


def test_every_test_file_outside_the_spanning_folders_mirrors_a_module() -> None:
    wanted = _modules()
    strays = [path.relative_to(ROOT).as_posix() for path in _mirroring_tests()
              if path not in wanted]  # fmt: skip
    assert strays == []


# Dev-only distributions: the product imports none of them at its top level (`plainview
# eval` imports trafilatura and readability-lxml as peers only when they are installed).
DEV_ONLY = r"plainview_dev|pytest|hypothesis|trafilatura|readability|playwright|aiohttp|psutil"


def test_the_wheel_package_holds_no_dev_tooling() -> None:
    dev = [
        path.relative_to(ROOT).as_posix()
        for path in ADDON.rglob("*.py")
        if re.search(rf"^(from|import) ({DEV_ONLY})\b", path.read_text(), re.M)
    ]
    assert dev == []


def test_the_core_imports_nothing_outside_the_core() -> None:
    leaks = [
        path.relative_to(ROOT).as_posix()
        for path in (ADDON / "core").rglob("*.py")
        if re.search(r"^\s*from addon\.(?!core\b)", path.read_text(), re.M)
    ]
    assert leaks == []
