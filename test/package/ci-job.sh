#!/usr/bin/env bash
# A CI job around wfe serve without the Action (README "A CI job around wfe serve" uses action.yml,
# whose scripts .ci/action/test.sh runs): start, wait for health, call, stop, in a project that
# installed the packed wfe (test/package.test.ts runs it). Ports from the environment so tests do
# not collide.
set -euo pipefail
PORT_US="${PORT_US:-8787}"
PORT_EU="${PORT_EU:-8788}"

# Start the emulator
./node_modules/.bin/wfe serve --port-us "$PORT_US" --port-eu "$PORT_EU" --quiet &
echo $! > wfe.pid
trap 'kill "$(cat wfe.pid)"' EXIT            # Stop the emulator (if: always())
ready=""
for i in $(seq 1 150); do
  if curl -fs "http://127.0.0.1:$PORT_US/_emulator/health" > /dev/null; then ready=1; break; fi
  sleep 0.2
done
[ -n "$ready" ] || { echo "wfe did not start"; exit 1; }

# Run the tests
WORKFLOW_API_URL="http://127.0.0.1:$PORT_US" WORKFLOW_API_KEY=acme-admin-key node --test ci-job.test.mjs
