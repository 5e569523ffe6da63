"""Plainview's extensions around the papers: furniture, the content tree, metadata."""
