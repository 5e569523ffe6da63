"""Types of the compiled allow-list walk (addon/core/_allow.pyx)."""

from collections.abc import Collection, Mapping

from lxml import etree

def set_tables(
    roles: Mapping[str, str],
    blockish: Collection[str],
    kept_attributes: Collection[str],
) -> None: ...
def settle_plain(
    holder: etree._Element, blockish: list[etree._Element], unwrap: set[str], shift_headings: bool
) -> list[etree._Element]: ...
