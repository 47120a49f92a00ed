#!/usr/bin/env bash
# The Action's start step (action.yml; README "A CI job around wfe serve"): starts
# `wfe serve` in the background, waits for GET /_emulator/health, and hands the base URLs
# to the job: WFE_US_URL, WFE_EU_URL, WFE_PID and WFE_LOG in $GITHUB_ENV, the same as the
# step's outputs (us-url, eu-url, pid, log) in $GITHUB_OUTPUT. If wfe exits first (a bad
# flag, a port in use, an unwritable --db), the step fails at once with wfe's own message.
# Inputs (environment, set by action.yml):
#   WFE_INPUT_EXECUTABLE  a wfe executable (the single executable, node_modules/.bin/wfe)
#   WFE_INPUT_PACKAGE     else an npm package spec run with npx (wfe@0.1.0, ./wfe-0.1.0.tgz)
#   (neither)             else this repository, the Action's own checkout: npm ci there once
#   WFE_INPUT_ARGS        more `wfe serve` flags, split on spaces (--fixture demo --db wfe.sqlite)
#   WFE_INPUT_PORT_US, WFE_INPUT_PORT_EU   ports (default 8787, 8788; 0 = any free port)
#   WFE_INPUT_TIMEOUT     seconds to wait for health once started (default 60)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="${GITHUB_ACTION_PATH:-$(cd "$HERE/../.." && pwd)}"
TMP="${RUNNER_TEMP:-$(mktemp -d)}"
: "${GITHUB_ENV:?GITHUB_ENV must name a file (GitHub Actions sets it)}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT must name a file (GitHub Actions sets it)}"
PORT_US="${WFE_INPUT_PORT_US:-8787}"
PORT_EU="${WFE_INPUT_PORT_EU:-8788}"
TIMEOUT="${WFE_INPUT_TIMEOUT:-60}"
read -r -a EXTRA <<< "${WFE_INPUT_ARGS:-}"

if [ -n "${WFE_INPUT_EXECUTABLE:-}" ]; then
  CMD=("$WFE_INPUT_EXECUTABLE")
elif [ -n "${WFE_INPUT_PACKAGE:-}" ]; then
  CMD=(npx -y "$WFE_INPUT_PACKAGE")
else
  # The Action's own checkout: installed and bundled once per job (npm ci runs `prepare`).
  if [ ! -f "$REPO/dist/wfe.cjs" ] || [ ! -d "$REPO/node_modules/better-sqlite3" ]; then
    echo "wfe: installing the Action's checkout (npm ci in $REPO)"
    (cd "$REPO" && npm ci --no-audit --no-fund) >&2
  fi
  CMD=(node "$REPO/bin/wfe.js")
fi

# A service for the rest of the job: not tied to an npm that may have run this script (docs/running.md "Stopping with npx").
unset npm_lifecycle_event
LOG="$TMP/wfe-$$.log"
: > "$LOG"  # before wfe starts: the loop below reads it at once
# Its own process group (setsid, where there is one), so stop.sh stops npx and the node under it together.
SETSID=(); command -v setsid > /dev/null && SETSID=(setsid)
"${SETSID[@]}" "${CMD[@]}" serve --port-us "$PORT_US" --port-eu "$PORT_EU" "${EXTRA[@]}" > "$LOG" 2>&1 < /dev/null &
PID=$!

US=""; EU=""
deadline=$((SECONDS + TIMEOUT))
while :; do
  if ! kill -0 "$PID" 2> /dev/null; then
    wait "$PID" && code=0 || code=$?
    echo "::error title=wfe did not start::$(grep -m1 '^wfe: ' "$LOG" || tail -1 "$LOG")"
    cat "$LOG" >&2
    echo "wfe exited with status $code before it answered (log above)." >&2
    exit 1
  fi
  if [ -z "$US" ]; then
    # The banner names the addresses (the real ports when 0 was asked); --quiet has none.
    US="$(sed -n 's/^  US  REST \(http:[^ ]*\)\/v3 .*/\1/p' "$LOG")"
    EU="$(sed -n 's/^  EU  REST \(http:[^ ]*\)\/v3 .*/\1/p' "$LOG")"
    if [ -z "$US" ] && [ "$PORT_US" != 0 ] && [ "$PORT_EU" != 0 ]; then US="http://127.0.0.1:$PORT_US"; EU="http://127.0.0.1:$PORT_EU"; fi
  fi
  if [ -n "$US" ] && curl -fsS --max-time 2 "$US/_emulator/health" > /dev/null 2>&1; then break; fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    cat "$LOG" >&2
    echo "::error title=wfe did not start::no answer from ${US:-its address}/_emulator/health within $TIMEOUT s"
    kill -TERM -- "-$PID" 2> /dev/null || kill -TERM "$PID" 2> /dev/null || true
    exit 1
  fi
  sleep 0.2
done

{
  echo "WFE_US_URL=$US"
  echo "WFE_EU_URL=$EU"
  echo "WFE_PID=$PID"
  echo "WFE_LOG=$LOG"
} >> "$GITHUB_ENV"
{
  echo "us-url=$US"
  echo "eu-url=$EU"
  echo "pid=$PID"
  echo "log=$LOG"
} >> "$GITHUB_OUTPUT"
echo "wfe is running: US $US, EU $EU (pid $PID, log $LOG)"
