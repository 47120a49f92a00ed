#!/usr/bin/env bash
# Runs the Action (action.yml) as GitHub Actions would, on this machine: its start step with
# GITHUB_ENV and GITHUB_OUTPUT as files, a test step reading $WFE_US_URL from them, and the
# `stop: true` step. Then: a bad flag fails the start step at once with wfe's own message,
# and an executable given as `executable` (bin/wfe.js here) runs the same way.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "action test: $*" >&2; exit 1; }

# One job: env and outputs files, RUNNER_TEMP; the action's steps see GITHUB_ACTION_PATH.
job() { # <name> <start.sh env assignments...>
  local dir="$WORK/$1"; shift
  mkdir -p "$dir/temp"
  : > "$dir/env"; : > "$dir/output"
  # The workspace: an empty project.
  mkdir -p "$dir/workspace"; cd "$dir/workspace"
  env GITHUB_ACTION_PATH="$ROOT" GITHUB_ENV="$dir/env" GITHUB_OUTPUT="$dir/output" RUNNER_TEMP="$dir/temp" \
    WFE_INPUT_EXECUTABLE= WFE_INPUT_PACKAGE= WFE_INPUT_ARGS= WFE_INPUT_PORT_US=0 WFE_INPUT_PORT_EU=0 WFE_INPUT_TIMEOUT=60 \
    "$@" "$ROOT/.ci/action/start.sh" > "$dir/start.out" 2> "$dir/start.err"
  local code=$?
  cd "$ROOT"
  return $code
}
# A later step: the job's env file as its environment (what the runner does with GITHUB_ENV).
step() { # <name> <command...>
  local dir="$WORK/$1"; shift
  (cd "$dir/workspace" && env $(cat "$dir/env") "$@")
}

# 1. Start from the checkout (the default), test, stop.
began=$SECONDS
job default || { cat "$WORK/default/start.out" "$WORK/default/start.err"; fail "the start step failed"; }
echo "action test: started in $((SECONDS - began)) s: $(tail -1 "$WORK/default/start.out")"
grep -q '^WFE_US_URL=http://127\.0\.0\.1:[0-9]*$' "$WORK/default/env" || fail "no WFE_US_URL in GITHUB_ENV: $(cat "$WORK/default/env")"
grep -q '^WFE_EU_URL=http://' "$WORK/default/env" || fail "no WFE_EU_URL in GITHUB_ENV"
grep -q '^us-url=http://' "$WORK/default/output" || fail "no us-url output: $(cat "$WORK/default/output")"
step default bash -c 'curl -fsS -H "X-API-KEY: acme-admin-key" "$WFE_US_URL/v3/auth/test" > /dev/null' || fail "GET /v3/auth/test on \$WFE_US_URL failed"
step default bash -c 'curl -fsS "$WFE_EU_URL/_emulator/health" > /dev/null' || fail "the EU address does not answer"
PID="$(sed -n 's/^WFE_PID=//p' "$WORK/default/env")"
US="$(sed -n 's/^WFE_US_URL=//p' "$WORK/default/env")"
step default "$ROOT/.ci/action/stop.sh" || fail "the stop step failed"
curl -fsS --max-time 2 "$US/_emulator/health" > /dev/null 2>&1 && fail "wfe still answers at $US after the stop step"
if kill -0 "$PID" 2> /dev/null && [ "$(ps -o stat= -p "$PID" | cut -c1)" != Z ]; then fail "pid $PID is still running after the stop step"; fi
echo "action test: stopped"

# 2. A bad flag: the start step fails at once, with wfe's own message.
began=$SECONDS
if job badflag WFE_INPUT_ARGS="--no-such-flag"; then fail "the start step passed with a bad flag"; fi
took=$((SECONDS - began))
grep -q "unknown option '--no-such-flag'" "$WORK/badflag/start.err" || fail "the failed start step does not show wfe's message: $(cat "$WORK/badflag/start.err")"
grep -q '::error title=wfe did not start::' "$WORK/badflag/start.out" || fail "no ::error annotation: $(cat "$WORK/badflag/start.out")"
[ "$took" -lt 20 ] || fail "the bad flag took $took s to fail"
echo "action test: a bad flag fails the step in $took s with: $(grep -m1 'unknown option' "$WORK/badflag/start.err")"

# 3. executable: a given wfe (here the checkout's bin/wfe.js), fixed ports from the inputs.
job exe WFE_INPUT_EXECUTABLE="$ROOT/bin/wfe.js" WFE_INPUT_ARGS="--fixture none" || { cat "$WORK/exe/start.err"; fail "the start step with executable failed"; }
step exe bash -c 'curl -fsS "$WFE_US_URL/_emulator/health" | grep -q "\"fixture\":\"none\""' || fail "executable: --fixture none did not reach wfe"
step exe "$ROOT/.ci/action/stop.sh" > /dev/null || fail "executable: the stop step failed"
echo "action test: executable input ok"

# 4. package: an npm package spec run with npx (here this checkout's directory), stopped
# through its process group (npx, npm's shell and wfe).
job pkg WFE_INPUT_PACKAGE="$ROOT" || { cat "$WORK/pkg/start.err"; fail "the start step with package failed"; }
PID="$(sed -n 's/^WFE_PID=//p' "$WORK/pkg/env")"
US="$(sed -n 's/^WFE_US_URL=//p' "$WORK/pkg/env")"
step pkg "$ROOT/.ci/action/stop.sh" > /dev/null || fail "package: the stop step failed"
curl -fsS --max-time 2 "$US/_emulator/health" > /dev/null 2>&1 && fail "package: wfe still answers at $US after the stop step"
echo "action test: package input (npx) ok"
