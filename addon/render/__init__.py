"""Reader, settings and why pages from the templates."""
