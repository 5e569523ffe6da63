# shellcheck shell=bash
# Shared helpers for scripts/run, scripts/test and scripts/add-golden.
# Source it; it defines functions and constants only.

# The oldest Python the package supports (pyproject: requires-python).
PV_MIN_MINOR=11
# Newest first: the minor versions looked for as python3.N and in pyenv.
PV_PREFERRED_MINORS=(13 12)
# The main venv: the newest Python with the newest supported mitmproxy series.
# shellcheck disable=SC2034  # used by the scripts that source this file
PV_MAIN_PINS=("mitmproxy~=12.2.0")
# The second venv: the oldest supported Python and mitmproxy together.
# shellcheck disable=SC2034
PV_OLDEST_PINS=("mitmproxy==11.0.2")
PV_CHROMIUM=/usr/bin/chromium
PV_STAMP_NAME=.plainview-install-stamp

pv_log() {
    printf 'plainview: %s\n' "$*" >&2
}

pv_die() {
    printf 'plainview: error: %s\n' "$*" >&2
    exit 1
}

pv_repo_root() {
    local here
    here=$(cd -- "${BASH_SOURCE[0]%/*}/.." && pwd -P)
    printf '%s\n' "$here"
}

# Print "MAJOR MINOR" of interpreter $1 if it runs and can make a venv.
# pyenv shims exist for every installed version but fail unless that
# version is active, so being on PATH proves nothing: run it.
pv_python_version() {
    local out
    out=$("$1" -c 'import sys, venv, ensurepip; print(sys.version_info[:2])' 2>/dev/null) \
        || return 1
    [[ $out =~ ^\(([0-9]+),\ ([0-9]+)\)$ ]] || return 1
    printf '%s %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
}

# Succeed if interpreter $1 runs and is exactly Python 3.$2.
pv_python_is() {
    local version
    version=$(pv_python_version "$1") || return 1
    [[ $version == "3 $2" ]]
}

pv_pyenv_root() {
    if [[ -n ${PYENV_ROOT:-} ]]; then
        printf '%s\n' "$PYENV_ROOT"
    elif command -v pyenv >/dev/null 2>&1; then
        pyenv root
    else
        printf '%s\n' "${HOME:-/root}/.pyenv"
    fi
}

# Print pyenv's newest working 3.$1.* interpreter.
pv_pyenv_python() {
    local root dir patch best=-1 found=""
    root=$(pv_pyenv_root)
    for dir in "$root"/versions/3."$1".*; do
        patch=${dir##*/3."$1".}
        [[ $patch =~ ^[0-9]+$ ]] || continue
        ((patch > best)) || continue
        pv_python_is "$dir/bin/python" "$1" || continue
        best=$patch
        found=$dir/bin/python
    done
    [[ -n $found ]] && printf '%s\n' "$found"
}

# Print a working Python 3.$1: python3.$1 on PATH, else pyenv's.
pv_find_minor() {
    local cand
    if cand=$(command -v "python3.$1") && pv_python_is "$cand" "$1"; then
        printf '%s\n' "$cand"
        return 0
    fi
    pv_pyenv_python "$1"
}

# Print the newest usable Python: 3.13, then 3.12 (PATH before pyenv),
# else python3 if it is at least 3.$PV_MIN_MINOR.
pv_pick_python() {
    local minor cand version
    for minor in "${PV_PREFERRED_MINORS[@]}"; do
        if cand=$(pv_find_minor "$minor"); then
            printf '%s\n' "$cand"
            return 0
        fi
    done
    cand=$(command -v python3) || {
        pv_log "no Python found: install Python 3.$PV_MIN_MINOR or newer (3.13 preferred)"
        return 1
    }
    version=$(pv_python_version "$cand") || {
        pv_log "$cand does not run (or lacks the venv module): install Python 3.13"
        return 1
    }
    if [[ ${version% *} != 3 ]] || ((${version#* } < PV_MIN_MINOR)); then
        pv_log "$cand is Python ${version/ /.}; Plainview needs 3.$PV_MIN_MINOR or newer (3.13 preferred)"
        return 1
    fi
    printf '%s\n' "$cand"
}

# Print a Python 3.$PV_MIN_MINOR: python3.N on PATH, pyenv's, or python3.
pv_pick_oldest_python() {
    local cand
    if cand=$(pv_find_minor "$PV_MIN_MINOR"); then
        printf '%s\n' "$cand"
        return 0
    fi
    if cand=$(command -v python3) && pv_python_is "$cand" "$PV_MIN_MINOR"; then
        printf '%s\n' "$cand"
        return 0
    fi
    pv_log "no working Python 3.$PV_MIN_MINOR found (python3.$PV_MIN_MINOR, pyenv, python3)"
    return 1
}

# Print the base interpreter's prefix and full version: a venv made from
# it prints the same, so this tells whether a venv belongs to it.
pv_python_identity() {
    "$1" -c 'import os, sys; print(os.path.realpath(sys.base_prefix), sys.version)' 2>/dev/null
}

pv_install_stamp() {
    local pins="$*"
    # The install compiles addon/core/*.pyx (with *.pxd): a changed source needs a new build.
    {
        sha256sum pyproject.toml setup.py addon/core/*.pyx addon/core/*.pxd
        printf 'pins: %s\n' "$pins"
    } | sha256sum | cut -d' ' -f1
}

# The compiled modules need a C compiler and the headers of Python $1;
# install them with apt-get when they are missing (pyenv's Pythons carry theirs).
pv_ensure_build_tools() {
    local python=$1 include minor
    if ! command -v cc >/dev/null 2>&1; then
        pv_apt_install gcc libc6-dev
    fi
    include=$("$python" -c 'import sysconfig; print(sysconfig.get_path("include"))') \
        || pv_die "$python does not run"
    if [[ ! -f $include/Python.h ]]; then
        minor=$("$python" -c 'import sys; print(sys.version_info[1])')
        pv_apt_install "python3.$minor-dev"
        [[ -f $include/Python.h ]] || pv_die "python3.$minor-dev installed but $include/Python.h is missing"
    fi
}

# Make venv $1 from interpreter $2 and install the package with its dev
# extras plus the pins that follow; skip what is already in place.
# Must run from the repository root.
pv_ensure_venv() {
    local venv=$1 python=$2 want have stamp
    shift 2
    want=$(pv_python_identity "$python") || pv_die "$python does not run"
    have=$(pv_python_identity "$venv/bin/python") || have=""
    if [[ $have != "$want" ]]; then
        [[ -e $venv ]] && pv_log "$venv was made by another or a broken Python; recreating it"
        rm -rf -- "$venv"
        pv_log "creating $venv with $python (${want#* })"
        "$python" -m venv "$venv" || pv_die "could not create $venv with $python"
    fi
    pv_link_dev_package "$venv"
    stamp=$(pv_install_stamp "$@")
    if [[ -f $venv/$PV_STAMP_NAME && $(<"$venv/$PV_STAMP_NAME") == "$stamp" ]]; then
        return 0
    fi
    pv_ensure_build_tools "$python"
    pv_log "installing the package into $venv: .[dev] $*"
    # The pip bundled with older Pythons mis-resolves some extras (lxml[html-clean]).
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip \
        || pv_die "could not upgrade pip in $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        -e '.[dev]' "$@" || pv_die "pip install into $venv failed"
    printf '%s\n' "$stamp" >"$venv/$PV_STAMP_NAME"
}

# Make the dev tooling (scripts/plainview_dev: benchmarks, load test, gates)
# importable in venv $1 by a .pth file: it is never part of the package.
pv_link_dev_package() {
    local site
    site=$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))') \
        || pv_die "$1/bin/python does not run"
    printf '%s\n' "$(pwd -P)/scripts" >"$site/plainview-dev.pth"
}

# Print "sudo" when not root (and sudo exists); nothing when root.
pv_sudo() {
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || pv_die "not root and no sudo: cannot run apt-get"
        printf 'sudo\n'
    fi
}

PV_APT_UPDATED=0

# Install Debian packages $@ with apt-get, updating the lists once per run.
pv_apt_install() {
    local -a sudo=()
    local prefix
    prefix=$(pv_sudo)
    [[ -n $prefix ]] && sudo=("$prefix")
    command -v apt-get >/dev/null 2>&1 || pv_die "apt-get not found: install $* by hand"
    if ((PV_APT_UPDATED == 0)); then
        pv_log "apt-get update"
        "${sudo[@]}" apt-get update -qq || pv_die "apt-get update failed"
        PV_APT_UPDATED=1
    fi
    pv_log "apt-get install $*"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" \
        || pv_die "apt-get install $* failed"
}

# Debian's Chromium drives the browser tests (never a downloaded build).
pv_ensure_chromium() {
    [[ -x $PV_CHROMIUM ]] && return 0
    pv_apt_install chromium
    [[ -x $PV_CHROMIUM ]] || pv_die "chromium installed but $PV_CHROMIUM is missing"
}

# The node packages pinned in package-lock.json: axe-core checks the reader pages'
# accessibility; Readability.js and jsdom are `plainview eval --peers`' Firefox
# Reader View (scripts/readability-peer.mjs). A file of each must be there.
PV_NODE_FILES=(
    node_modules/axe-core/axe.min.js
    node_modules/@mozilla/readability/Readability.js
    node_modules/jsdom/package.json
)

# Install the node packages unless the lock file's stamp and every package are there.
# Must run from the repository root.
pv_ensure_node_modules() {
    local stamp file missing=0
    command -v npm >/dev/null 2>&1 || pv_apt_install nodejs npm
    stamp=$(sha256sum package-lock.json | cut -d' ' -f1)
    for file in "${PV_NODE_FILES[@]}"; do
        [[ -f $file ]] || missing=1
    done
    if ((missing == 0)) && [[ -f node_modules/$PV_STAMP_NAME \
        && $(<"node_modules/$PV_STAMP_NAME") == "$stamp" ]]; then
        return 0
    fi
    pv_log "npm ci (axe-core, @mozilla/readability, jsdom)"
    npm ci --no-audit --no-fund --loglevel=error || pv_die "npm ci failed"
    printf '%s\n' "$stamp" >"node_modules/$PV_STAMP_NAME"
}
