"""Settings shared by the whole suite."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

# The site memory defaults to the user's data directory: no test may write there
# (the proxies the tests run inherit this too).
_DATA_HOME = tempfile.mkdtemp(prefix="plainview-test-data-")
os.environ["XDG_DATA_HOME"] = _DATA_HOME
atexit.register(shutil.rmtree, _DATA_HOME, True)
