"""Build the compiled modules (addon/core/*.pyx); everything else is in pyproject.toml."""

import lxml
from setuptools import Extension, setup


def compiled(name: str) -> Extension:
    """Declare one Cython module of addon.core, built against lxml's C API."""
    # optional: without a C compiler the package installs without it and
    # addon.core runs the Python twin of each module, with the same result.
    return Extension(
        f"addon.core.{name}",
        [f"addon/core/{name}.pyx"],
        include_dirs=lxml.get_include(),
        depends=["addon/core/_libxml.pxd"],
        optional=True,
    )


setup(
    ext_modules=[
        compiled(name) for name in ("_lines", "_dom", "_words", "_marks", "_allow", "_scan")
    ]
)
