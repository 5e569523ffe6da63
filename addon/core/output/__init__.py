"""The output stage: selected subtrees in, clean reader blocks out."""
