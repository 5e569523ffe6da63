"""Types of the compiled line walk (addon/core/_lines.pyx)."""

from collections.abc import Callable

from lxml import etree

from addon.core.paper.lines import Line

def build_lines(
    root: etree._Element,
    line: type[Line],
    count_line: Callable[[str, int], tuple[int, int]] | None,
    filter: int,
    offset: int,
    cap: int,
) -> list[Line]: ...
