"""Types of the compiled marked text (addon/core/_marks.pyx)."""

from collections.abc import Iterable

from lxml import etree

def set_line_tags(names: Iterable[str]) -> None: ...
def block_marks(holder: etree._Element) -> str: ...
