"""The extraction pipeline: bytes in, `Article | Skip` out."""

from __future__ import annotations

from addon.core.params import ExtractParams, params_for
from addon.core.result import Article, Skip


def extract(
    body: bytes | str,
    *,
    url: str | None = None,
    content_type: str | None = None,
    params: ExtractParams | None = None,
) -> Article | Skip:
    """Extract the main content and headline of one page (thesis ch. 4-5)."""
    params = params or params_for()
    return Skip("pipeline under construction")
