#!/usr/bin/env bash
# install-test-deps.sh: installs what the test suite talks to (real peers: curl, python3, git; xmllint for the
# JUnit schema check; groff to render the man page; pyte, a terminal emulator from PyPI, as the oracle for
# TerminalScreen) when missing.
# CI calls it from a fresh machine; on a machine that has them it does nothing.
# Usage: scripts/install-test-deps.sh
set -euo pipefail

missing=()
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
command -v setsid >/dev/null || missing+=(util-linux)
command -v xmllint >/dev/null || missing+=(libxml2-utils)
command -v groff >/dev/null || missing+=(groff-base)
command -v git >/dev/null || missing+=(git)

# pyte (PyPI) for the python3 on PATH, whichever installer that python accepts.
install_pyte() {
    python3 -c "import pyte" 2>/dev/null && return 0
    python3 -m pip install --quiet pyte 2>/dev/null && return 0
    python3 -m pip install --quiet --break-system-packages pyte 2>/dev/null && return 0
    command -v apt-get >/dev/null && $SUDO apt-get install -y -qq python3-pyte >/dev/null 2>&1
    python3 -c "import pyte" 2>/dev/null || echo "install-test-deps: could not install pyte; TerminalScreen's differential test will be skipped" >&2
}

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-test-deps: curl, python3, setsid, xmllint, groff and git are present"
    install_pyte
    exit 0
fi

if command -v apt-get >/dev/null; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
elif command -v dnf >/dev/null; then
    $SUDO dnf install -y "${missing[@]}"
elif command -v yum >/dev/null; then
    $SUDO yum install -y "${missing[@]}"
else
    echo "install-test-deps: please install: ${missing[*]}" >&2
    exit 1
fi
install_pyte
