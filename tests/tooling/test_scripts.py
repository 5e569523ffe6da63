"""Tests for the Python picking in scripts/lib.sh, run on fake interpreters."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[2] / "scripts" / "lib.sh"
BASH = "/bin/bash"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one call of a lib.sh function printed and returned."""

    returncode: int
    stdout: str
    stderr: str


@dataclass(frozen=True, slots=True)
class Machine:
    """A temporary PATH folder and pyenv root holding fake interpreters."""

    bin: Path
    pyenv: Path

    def add(self, name: str, version: tuple[int, int] | None) -> Path:
        """Put a fake interpreter on PATH; None makes a failing pyenv shim."""
        return write_fake(self.bin / name, version)

    def add_pyenv(self, folder: str, version: tuple[int, int] | None) -> Path:
        """Install a fake interpreter as pyenv's versions/FOLDER/bin/python."""
        return write_fake(self.pyenv / "versions" / folder / "bin" / "python", version)

    def call(self, function: str) -> Outcome:
        """Source lib.sh in a clean bash and call FUNCTION with only this PATH."""
        env = {"PATH": str(self.bin), "PYENV_ROOT": str(self.pyenv), "HOME": str(self.bin)}
        done = subprocess.run(
            [BASH, "-c", f'source "{LIB}" && {function}'],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        return Outcome(done.returncode, done.stdout.strip(), done.stderr)


def write_fake(path: Path, version: tuple[int, int] | None) -> Path:
    """Write an executable that answers the version probe like Python would."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if version is None:
        body = f"echo 'pyenv: {path.name}: command not found' >&2\nexit 127\n"
    else:
        body = f"echo '({version[0]}, {version[1]})'\n"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    """Return an empty fake machine: no interpreters anywhere."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "pyenv").mkdir()
    return Machine(tmp_path / "bin", tmp_path / "pyenv")


def test_picks_the_newest_working_python_on_path(machine: Machine) -> None:
    newest = machine.add("python3.13", (3, 13))
    machine.add("python3.12", (3, 12))
    machine.add("python3", (3, 11))
    assert machine.call("pv_pick_python") == Outcome(0, str(newest), "")


def test_skips_a_failing_pyenv_shim(machine: Machine) -> None:
    machine.add("python3.13", None)
    working = machine.add("python3.12", (3, 12))
    machine.add("python3", (3, 11))
    assert machine.call("pv_pick_python").stdout == str(working)


def test_skips_a_shim_that_runs_another_version(machine: Machine) -> None:
    machine.add("python3.13", (3, 11))
    working = machine.add("python3.12", (3, 12))
    assert machine.call("pv_pick_python").stdout == str(working)


def test_falls_back_to_pyenv_newest_patch(machine: Machine) -> None:
    machine.add("python3.13", None)
    machine.add("python3.12", None)
    machine.add("python3", (3, 11))
    machine.add_pyenv("3.13.2", (3, 13))
    newest = machine.add_pyenv("3.13.10", (3, 13))
    machine.add_pyenv("3.12.1", (3, 12))
    assert machine.call("pv_pick_python").stdout == str(newest)


def test_skips_a_broken_pyenv_version(machine: Machine) -> None:
    machine.add_pyenv("3.13.1", None)
    machine.add_pyenv("3.13.0t", (3, 13))
    working = machine.add_pyenv("3.12.1", (3, 12))
    assert machine.call("pv_pick_python").stdout == str(working)


def test_prefers_a_newer_pyenv_python_to_an_older_one_on_path(machine: Machine) -> None:
    machine.add("python3.12", (3, 12))
    newer = machine.add_pyenv("3.13.0", (3, 13))
    assert machine.call("pv_pick_python").stdout == str(newer)


def test_falls_back_to_python3(machine: Machine) -> None:
    python3 = machine.add("python3", (3, 11))
    machine.add_pyenv("3.10.13", (3, 10))
    assert machine.call("pv_pick_python") == Outcome(0, str(python3), "")


def test_rejects_a_too_old_python3_clearly(machine: Machine) -> None:
    python3 = machine.add("python3", (3, 10))
    outcome = machine.call("pv_pick_python")
    assert outcome.returncode != 0
    assert outcome.stdout == ""
    assert f"{python3} is Python 3.10; Plainview needs 3.11 or newer" in outcome.stderr


def test_rejects_a_failing_python3_clearly(machine: Machine) -> None:
    python3 = machine.add("python3", None)
    outcome = machine.call("pv_pick_python")
    assert outcome.returncode != 0
    assert f"{python3} does not run" in outcome.stderr


def test_reports_no_python_at_all(machine: Machine) -> None:
    outcome = machine.call("pv_pick_python")
    assert outcome.returncode != 0
    assert "no Python found" in outcome.stderr


def test_oldest_leg_uses_pyenv_311_when_the_shim_fails(machine: Machine) -> None:
    machine.add("python3.11", None)
    machine.add("python3", (3, 12))
    pyenv_311 = machine.add_pyenv("3.11.7", (3, 11))
    assert machine.call("pv_pick_oldest_python").stdout == str(pyenv_311)


def test_oldest_leg_takes_python3_when_it_is_311(machine: Machine) -> None:
    python3 = machine.add("python3", (3, 11))
    assert machine.call("pv_pick_oldest_python").stdout == str(python3)


def test_oldest_leg_without_311_fails_clearly(machine: Machine) -> None:
    machine.add("python3", (3, 13))
    outcome = machine.call("pv_pick_oldest_python")
    assert outcome.returncode != 0
    assert "no working Python 3.11" in outcome.stderr


@dataclass(frozen=True, slots=True)
class BuildTools:
    """A fake machine for pv_ensure_build_tools: a Python, its include folder, apt-get."""

    machine: Machine
    python: Path
    include: Path
    apt_log: Path

    def installed(self) -> list[str]:
        """Return the apt-get command lines run so far."""
        return self.apt_log.read_text().splitlines() if self.apt_log.exists() else []


@pytest.fixture
def build_tools(machine: Machine, tmp_path: Path) -> BuildTools:
    """Return a machine whose Python 3.11 has no headers and that has no compiler."""
    include = tmp_path / "include" / "python3.11"
    include.mkdir(parents=True)
    python = machine.bin / "python3.11"
    python.write_text(
        "#!/bin/sh\n"
        f'case "$2" in *sysconfig*) echo "{include}" ;; *version_info*) echo 11 ;; esac\n'
    )
    apt_log = tmp_path / "apt.log"
    # The fake apt-get logs its arguments; installing python3.N-dev brings Python.h.
    apt_get = machine.bin / "apt-get"
    apt_get.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> "{apt_log}"\n'
        f'case "$*" in *python3*-dev*) : > "{include}/Python.h" ;; esac\n'
    )
    fake_id = machine.bin / "id"
    fake_id.write_text("#!/bin/sh\necho 0\n")
    for fake in (python, apt_get, fake_id):
        fake.chmod(0o755)
    (machine.bin / "env").symlink_to("/usr/bin/env")
    return BuildTools(machine, python, include, apt_log)


def test_build_tools_in_place_install_nothing(build_tools: BuildTools) -> None:
    (build_tools.machine.bin / "cc").symlink_to("/bin/true")
    (build_tools.include / "Python.h").touch()
    outcome = build_tools.machine.call(f'pv_ensure_build_tools "{build_tools.python}"')
    assert outcome.returncode == 0, outcome.stderr
    assert build_tools.installed() == []


def test_build_tools_installs_a_compiler_and_the_python_headers(build_tools: BuildTools) -> None:
    outcome = build_tools.machine.call(f'pv_ensure_build_tools "{build_tools.python}"')
    assert outcome.returncode == 0, outcome.stderr
    installs = [line for line in build_tools.installed() if line.startswith("install")]
    assert installs == ["install -y -qq gcc libc6-dev", "install -y -qq python3.11-dev"]


def test_build_tools_fail_clearly_when_the_headers_stay_missing(
    build_tools: BuildTools,
) -> None:
    (build_tools.machine.bin / "cc").symlink_to("/bin/true")
    build_tools.machine.bin.joinpath("apt-get").write_text("#!/bin/sh\nexit 0\n")
    outcome = build_tools.machine.call(f'pv_ensure_build_tools "{build_tools.python}"')
    assert outcome.returncode != 0
    assert "Python.h is missing" in outcome.stderr
