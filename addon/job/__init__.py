"""The worker's job: undo the Content-Encoding, extract within a time budget, render."""
