"""The built wheel alone: it holds the product and its templates, not the dev tooling, and runs.

The wheel is built from this checkout, installed into a fresh virtualenv, and
run from a folder outside the checkout, so nothing of the checkout (templates/,
scripts/, an editable install) can stand in for what the wheel lacks.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(path.name for path in (ROOT / "templates").iterdir())
PAGE = b"""<!doctype html><html lang="en"><head><title>A walk in the hills | Example</title></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>A walk in the hills</h1>
<p>We left the village early, before the mist had lifted from the valley floor, and climbed
the old drovers' road towards the ridge where the wind was already strong.</p>
<p>By noon we had reached the cairn. The view opened to the west, over three counties and the
grey line of the sea, and we ate our bread in the lee of the stones.</p>
<p>The way down was longer than we remembered, through bracken and over two stiles, and the
light was going when we reached the inn at the foot of the pass.</p>
</article><footer>Copyright Example</footer></body></html>"""

RENDER = """
import pathlib, sys
import addon
from addon.core import Article, extract
from addon.render.pages import PageStyle, ReaderLinks, render_reader
checkout = pathlib.Path(sys.argv[1])
assert checkout not in pathlib.Path(addon.__file__).resolve().parents, addon.__file__
article = extract(pathlib.Path(sys.argv[2]).read_bytes(), url="http://example.org/walk")
assert isinstance(article, Article), article
links = ReaderLinks("http://example.org/walk#o", "/toggle", "/", "token", "/why")
sys.stdout.buffer.write(render_reader(article, "http://example.org/walk", PageStyle(), links).body)
"""


def _run(argv: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a command without the checkout on any path; fail with its output if it fails."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel from the checkout, as pip builds it for an install."""
    out = tmp_path_factory.mktemp("wheel")
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        cwd=out,
    )
    (built,) = out.glob("plainview-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Install the wheel into a fresh virtualenv; return the venv's bin folder."""
    venv = tmp_path_factory.mktemp("venv")
    _run([sys._base_executable, "-m", "venv", str(venv)], cwd=venv)
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], cwd=venv)
    return venv / "bin"


def test_the_wheel_holds_the_templates_and_no_dev_tooling(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("addon/render/templates/"))
    assert shipped == TEMPLATES
    assert "addon/proxy/mitmdump_entry.py" in names
    tops = {name.split("/", 1)[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"addon"}
    for dev in ("bench", "loadtest", "gates", "plainview_dev", "tests", "scripts"):
        assert not [name for name in names if f"/{dev}" in name or name.startswith(dev)], dev


def test_the_installed_wheel_renders_a_reader_view(installed: Path, tmp_path: Path) -> None:
    page = tmp_path / "walk.html"
    page.write_bytes(PAGE)
    done = _run([str(installed / "python"), "-c", RENDER, str(ROOT), str(page)], cwd=tmp_path)
    assert "<h1" in done.stdout and "A walk in the hills" in done.stdout
    assert "the inn at the foot of the pass" in done.stdout
    assert "Copyright Example" not in done.stdout
    assert "<style" in done.stdout  # the stylesheet template, inline


def test_the_installed_wheel_runs_plainview_extract(installed: Path, tmp_path: Path) -> None:
    page = tmp_path / "walk.html"
    page.write_bytes(PAGE)
    argv = [str(installed / "plainview"), "extract", "--format", "text", str(page)]
    done = _run(argv, cwd=tmp_path)
    assert done.stdout.startswith("A walk in the hills")
    assert "we ate our bread in the lee of the stones" in done.stdout
    assert "Home" not in done.stdout


def test_the_installed_wheel_finds_its_mitmdump_entry(installed: Path, tmp_path: Path) -> None:
    done = _run([str(installed / "plainview"), "proxy", "--help"], cwd=tmp_path)
    assert "--listen-port" in done.stdout
    probe = "from addon.cli import proxy_command as p; print(p.ADDON_FILE.is_file())"
    assert _run([str(installed / "python"), "-c", probe], cwd=tmp_path).stdout.strip() == "True"
