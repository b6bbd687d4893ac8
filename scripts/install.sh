#!/usr/bin/env bash
# install.sh: builds sut-launch with scripts/build-release.sh and installs the binary and its companion
# sut-launch-foundation (what `--launcher foundation` runs; both stripped unless --debug-symbols), the man page
# and the bash, zsh and fish completions under PREFIX (default /usr/local).
#
# Usage: scripts/install.sh [PREFIX]                 scripts/install.sh --uninstall [PREFIX]
#        scripts/install.sh --debug-symbols [PREFIX]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
UNINSTALL=0
STRIP=1
PREFIX=""
for argument in "$@"; do
    case "$argument" in
        --uninstall) UNINSTALL=1 ;;
        --debug-symbols) STRIP=0 ;;
        -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
        -*) echo "install: unknown option $argument (see --help)" >&2; exit 2 ;;
        *) PREFIX="$argument" ;;
    esac
done
PREFIX="${PREFIX:-/usr/local}"
FILES=(
    "$PREFIX/bin/sut-launch"
    "$PREFIX/bin/sut-launch-foundation"
    "$PREFIX/share/man/man1/sut-launch.1"
    "$PREFIX/share/bash-completion/completions/sut-launch"
    "$PREFIX/share/zsh/site-functions/_sut-launch"
    "$PREFIX/share/fish/vendor_completions.d/sut-launch.fish"
)

if [ "$UNINSTALL" = 1 ]; then
    for file in "${FILES[@]}"; do
        if [ -e "$file" ]; then rm -f "$file" && echo "removed $file"; fi
    done
    exit 0
fi

BINARY="$("$ROOT/scripts/build-release.sh")"
for file in "${FILES[@]}"; do mkdir -p "$(dirname "$file")"; done
for name in sut-launch sut-launch-foundation; do
    install -m 0755 "$(dirname "$BINARY")/$name" "$PREFIX/bin/$name"
    if [ "$STRIP" = 1 ] && command -v strip >/dev/null; then strip "$PREFIX/bin/$name"; fi
done
"$PREFIX/bin/sut-launch" manpage > "$PREFIX/share/man/man1/sut-launch.1"
"$PREFIX/bin/sut-launch" completions bash > "$PREFIX/share/bash-completion/completions/sut-launch"
"$PREFIX/bin/sut-launch" completions zsh > "$PREFIX/share/zsh/site-functions/_sut-launch"
"$PREFIX/bin/sut-launch" completions fish > "$PREFIX/share/fish/vendor_completions.d/sut-launch.fish"
for file in "${FILES[@]}"; do echo "installed $file"; done
echo "$("$PREFIX/bin/sut-launch" --version), $(du -h "$PREFIX/bin/sut-launch" | cut -f1)"
