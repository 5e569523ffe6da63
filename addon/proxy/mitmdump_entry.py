"""Entry file for `mitmdump -s addon/proxy/mitmdump_entry.py`: Plainview's addon list."""

from addon.proxy.adapter import Plainview

addons = [Plainview()]
