"""Tests for addon.core.output.tags."""

from __future__ import annotations

from fragments import HOLDERS, THOROUGH
from hypothesis import given
from lxml import etree

from addon.core.output.tags import has_text, text_of


@THOROUGH
@given(HOLDERS)
def test_text_found_from_the_first_text_is_the_text_of_the_whole_element(
    holder: etree._Element,
) -> None:
    for el in holder.iter():
        assert has_text(el) == bool(text_of(el).strip())
