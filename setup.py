"""Build the compiled line walk (addon/core/_lines.pyx); everything else is in pyproject.toml."""

import lxml
from setuptools import Extension, setup

# optional: without a C compiler the package installs without the extension and
# addon.core.lines walks the tree in Python, with the same result.
LINES = Extension(
    "addon.core._lines",
    ["addon/core/_lines.pyx"],
    include_dirs=lxml.get_include(),
    optional=True,
)

setup(ext_modules=[LINES])
