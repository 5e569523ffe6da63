"""Tests for the entry file that `mitmdump -s` loads."""

from __future__ import annotations

from mitmproxy.test import taddons

from addon.proxy.adapter import Plainview


def test_the_entry_file_exposes_one_plainview_addon() -> None:
    from addon.proxy import mitmdump_entry as plainview_addon

    assert [type(a) for a in plainview_addon.addons] == [Plainview]


def test_mitmproxy_loads_the_entry_file_as_a_script() -> None:
    from addon.proxy import mitmdump_entry as plainview_addon

    with taddons.context() as tctx:
        module = tctx.script(plainview_addon.__file__)
        assert [type(a) for a in module.addons] == [Plainview]
        assert tctx.options.plainview_timeout == "2.0"
