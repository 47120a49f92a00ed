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
# The machine's npm: .ci/run's own `npm ci` is that install (it checks the same warning);
# WFE_NPM12_MACHINE=1 runs it here too, for a run of this script alone.
PACK_FROM=npm12
if [ "${WFE_NPM12_MACHINE:-0}" = 1 ]; then install_and_run npm-machine npm; PACK_FROM=npm-machine; fi

# A project that installs the packed tarball with npm 12, having allowed better-sqlite3's
# install script as the README says (README "The library"); then wfe opens a database.
# WFE_NPM12_CONSUMER=0 leaves it out (it builds better-sqlite3 once more).
if [ "${WFE_NPM12_CONSUMER:-1}" != 0 ]; then
  began=$SECONDS
  (cd "$WORK/$PACK_FROM" && npm pack --silent --pack-destination "$WORK" > /dev/null)
  mkdir "$WORK/consumer"
  cd "$WORK/consumer"
  echo '{"name":"consumer","version":"1.0.0","private":true}' > package.json
  npm pkg set allowScripts.better-sqlite3=true --json
  if ! npx -y npm@12 install --no-audit --no-fund "$WORK"/wfe-*.tgz > "$WORK/consumer.log" 2>&1; then
    tail -40 "$WORK/consumer.log"; echo "npm12.sh: consumer: npm 12 install of the tarball failed" >&2; exit 1
  fi
  npx --no-install wfe seed --db "$WORK/consumer/wfe.sqlite" || { echo "npm12.sh: consumer: wfe seed failed (better-sqlite3 not built?)" >&2; exit 1; }
  echo "npm12.sh: consumer: npm 12 installed the tarball with allowScripts.better-sqlite3 in $((SECONDS - began)) s; wfe seed ran"
fi
