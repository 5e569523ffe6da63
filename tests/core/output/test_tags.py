"""Tests for addon.core.output.tags."""

from __future__ import annotations

import pytest
from fragments import HOLDERS, THOROUGH
from hypothesis import given
from lxml import etree

from addon.core.output.tags import has_text, text_of, valid_attr


@THOROUGH
@given(HOLDERS)
def test_text_found_from_the_first_text_is_the_text_of_the_whole_element(
    holder: etree._Element,
) -> None:
    for el in holder.iter():
        assert has_text(el) == bool(text_of(el).strip())


@pytest.mark.parametrize(
    ("name", "value", "kept"),
    [
        ("display", " Block ", "block"),
        ("display", "flex", None),
        ("stretchy", "FALSE", "false"),
        ("accent", "yes", None),
        ("form", "prefix", "prefix"),
        ("mathvariant", "double-struck", "double-struck"),
        ("mathvariant", "bold;color:red", None),
        ("scriptlevel", "-1", "-1"),
        ("linethickness", "0", "0"),
        ("linethickness", "0.5em", "0.5em"),
        ("linethickness", "expression(alert(1))", None),
        ("alttext", "x squared", "x squared"),
    ],
)
def test_a_formulas_attributes_keep_only_the_values_mathml_defines(
    name: str, value: str, kept: str | None
) -> None:
    assert valid_attr(name, value) == kept
