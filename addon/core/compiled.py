"""The one registry of compiled functions: each is loaded here, beside its Python twin.

The install compiles the Cython modules `addon/core/_*.pyx` where it finds a C
compiler; without one every caller runs the Python twin, with the same output.
A module that is there but does not load is an error, not a reason to fall back.

Two environment variables, in the manner of aiohttp's `AIOHTTP_NO_EXTENSIONS`,
choose the twins at import, for the benchmarks (`scripts/bench compiled`) and the
equivalence tests: `PLAINVIEW_NO_EXTENSIONS=1` runs every twin (the pure-Python
build), `PLAINVIEW_TWINS=name,name` the named ones.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

# Every compiled function, by name, with its module. A compiled function stays
# only where it buys >= 5% of extraction time in the same-run benchmark
# (scripts/bench compiled, docs/performance.md).
FUNCTIONS: dict[str, str] = {
    "build_lines": "_lines",
    "text_length": "_dom",
    "attribute_values": "_dom",
    "attribute_value_set": "_dom",
    "elements_valued": "_dom",
    "elements_with": "_dom",
    "hidden_elements": "_dom",
    "elements_holding": "_dom",
    "unlink_all": "_dom",
    "word_count": "_words",
    "block_marks": "_marks",
    "settle_plain": "_allow",
    "scan_tags": "_scan",
    "holds_data_url": "_scan",
}
NO_EXTENSIONS = "PLAINVIEW_NO_EXTENSIONS"
TWINS = "PLAINVIEW_TWINS"


def compiled_module(name: str) -> Any | None:
    """Return the compiled module holding function NAME, or None where it runs as its twin."""
    module = FUNCTIONS[name]
    if name in twins_chosen() or importlib.util.find_spec(f"addon.core.{module}") is None:
        return None
    return importlib.import_module(f"addon.core.{module}")


def pick(name: str, twin: F) -> F:
    """Return the compiled function NAME where it was built and not turned off, else TWIN."""
    module = compiled_module(name)
    return twin if module is None else cast(F, getattr(module, name))


def pick_or_none(name: str) -> Callable[..., Any] | None:
    """Return the compiled function NAME, or None where its caller takes the plain way."""
    module = compiled_module(name)
    return None if module is None else cast(Callable[..., Any], getattr(module, name))


def twins_chosen() -> frozenset[str]:
    """Return the names whose Python twin the environment asks for."""
    if os.environ.get(NO_EXTENSIONS, "") not in {"", "0"}:
        return frozenset(FUNCTIONS)
    named = frozenset(part.strip() for part in os.environ.get(TWINS, "").split(","))
    unknown = named - {""} - FUNCTIONS.keys()
    if unknown:
        raise ValueError(f"{TWINS} names no compiled function: {', '.join(sorted(unknown))}")
    return named
