"""The extraction core: HTML in, dataclasses out (no I/O, no global state)."""

from addon.core.extract import SitePage, extract
from addon.core.params import ALGORITHMS, ExtractParams, params_for
from addon.core.result import Article, Block, Diagnostics, Skip

__all__ = [
    "ALGORITHMS",
    "Article",
    "Block",
    "Diagnostics",
    "ExtractParams",
    "SitePage",
    "Skip",
    "extract",
    "params_for",
]
