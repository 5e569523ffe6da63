"""Entry file for `mitmdump -s addon/plainview_addon.py`: Plainview's addon list."""

from addon.proxy import Plainview

addons = [Plainview()]
