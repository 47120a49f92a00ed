#!/usr/bin/env bash
# A fresh clone installs with npm 12 (which runs no dependency install script that
# package.json "allowScripts" does not allow) and with the machine's npm (11 runs them
# but warns about each one allowScripts does not cover), then runs its bundle:
# `npx wfe --version`. Usage: .ci/npm12.sh [repository] (default: this checkout's HEAD).
set -euo pipefail
SRC="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

install_and_run() { # <label> <npm command...>
  local label="$1"; shift
  local dir="$WORK/$label"
  git clone -q "$SRC" "$dir"
  local began=$SECONDS
  if ! (cd "$dir" && "$@" ci --no-audit --no-fund) > "$WORK/$label.log" 2>&1; then
    tail -40 "$WORK/$label.log"
    echo "npm12.sh: $label: npm ci failed (log above)" >&2
    exit 1
  fi
  # npm 11 names every install script allowScripts leaves unreviewed; none may be left.
  if grep -i 'not yet covered by allowScripts\|blocked because they are not covered' "$WORK/$label.log"; then
    echo "npm12.sh: $label: npm ci reported install scripts allowScripts does not cover (above)" >&2
    exit 1
  fi
  [ -f "$dir/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ] || { echo "npm12.sh: $label: better-sqlite3 was not built" >&2; exit 1; }
  local version
  version="$(cd "$dir" && npx --no-install wfe --version)"
  [ "$version" = "$(node -p "require('$dir/package.json').version")" ] || { echo "npm12.sh: $label: npx wfe --version printed '$version'" >&2; exit 1; }
  echo "npm12.sh: $label: npm $("$@" --version 2>/dev/null) ci in $((SECONDS - began)) s, npx wfe --version: $version"
}

install_and_run npm12 npx -y npm@12
install_and_run npm-machine npm
