"""Plainview: a reader-view proxy built on AdDANAg and TitleFinder."""

__version__ = "0.1.0"
