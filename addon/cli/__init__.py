"""The `plainview` command: extract, eval and proxy."""
