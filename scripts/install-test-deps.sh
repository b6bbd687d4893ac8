#!/usr/bin/env bash
# install-test-deps.sh: installs what the test suite talks to (real peers: curl, python3, git; xmllint for the
# JUnit schema check; groff to render the man page; Java and PyPI's `wiremock` client, whose wheel ships the
# WireMock standalone jar, for the differential test against WireMock; pyte, a terminal emulator from PyPI, as
# the oracle for TerminalScreen; gherkin-official, Cucumber's reference parser, for the 80 Gherkin languages;
# cucumber-messages, Cucumber's message classes, to check what --messages writes; cucumber-tag-expressions and
# cucumber-expressions, the references for --tags and step patterns; lxml, the reference for XPath; libxml2, which the
# XML matchers load at run time; headless chromium for the HTML report's browser test; PyYAML, to parse the CI recipes)
# when missing.
# CI calls it from a fresh machine; on a machine that has them it does nothing.
# Usage: scripts/install-test-deps.sh
set -euo pipefail

missing=()
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
command -v setsid >/dev/null || missing+=(util-linux)
command -v xmllint >/dev/null || missing+=(libxml2-utils)
# lcov --summary reads back the lcov.info --coverage writes.
command -v lcov >/dev/null || missing+=(lcov)
command -v groff >/dev/null || missing+=(groff-base)
command -v git >/dev/null || missing+=(git)
# The HTML report's browser test opens it in headless Chromium (Debian's package is `chromium`).
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || missing+=(chromium)
# PyYAML: the CI recipes' workflow files (docs/ci.md, init's ci/) are parsed as YAML by CIRecipesEndToEndTests.
python3 -c "import yaml" 2>/dev/null || missing+=(python3-yaml)
command -v java >/dev/null || missing+=(default-jre-headless)
# The mock server's --https loads the system's OpenSSL at run time; the HTTPS tests need it (and openssl s_client).
{ ldconfig -p 2>/dev/null | grep -q 'libssl\.so\.3\|libssl\.so\.1\.1'; } || missing+=(libssl3)
command -v openssl >/dev/null || missing+=(openssl)
# The XML matchers (equalToXml, matchesXPath, xPath) load the system's libxml2 at run time; their tests need it.
{ ldconfig -p 2>/dev/null | grep -q 'libxml2\.so\.2'; } || missing+=(libxml2)

# A PyPI package for the python3 on PATH, whichever installer that python accepts:
# pip_package MODULE [PYPI_NAME] [DEBIAN_PACKAGE].
pip_package() {
    local name="${2:-$1}"
    python3 -c "import $1" 2>/dev/null && return 0
    python3 -m pip install --quiet "$name" 2>/dev/null && return 0
    python3 -m pip install --quiet --break-system-packages "$name" 2>/dev/null && return 0
    if [ -n "${3:-}" ] && command -v apt-get >/dev/null; then $SUDO apt-get install -y -qq "$3" >/dev/null 2>&1 || true; fi
    python3 -c "import $1" 2>/dev/null || echo "install-test-deps: could not install the Python package $name; the tests that need it are skipped" >&2
}
install_pip_packages() {
    pip_package pyte pyte python3-pyte
    pip_package wiremock
    pip_package gherkin gherkin-official   # the reference Gherkin parser, for GherkinLanguageTests
    pip_package cucumber_messages cucumber-messages   # Cucumber's message classes, to check --messages output
    pip_package cucumber_tag_expressions cucumber-tag-expressions   # the reference for --tags
    pip_package cucumber_expressions cucumber-expressions   # the reference for step patterns
    pip_package lxml lxml python3-lxml   # the reference for XPath 1.0 (XPathDifferentialTests)
}

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-test-deps: curl, python3, setsid, xmllint, groff, git, java, libssl, openssl and libxml2 are present"
    install_pip_packages
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
install_pip_packages
