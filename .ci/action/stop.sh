#!/usr/bin/env bash
# The Action's stop step (action.yml with `stop: true`, run `if: always()`): SIGTERM to the
# process group start.sh made (npx, its shell and wfe alike), then waits for wfe to close
# its database and exit; SIGKILL after WFE_STOP_TIMEOUT seconds (default 10). Prints the
# end of wfe's log. Nothing started (start.sh failed or never ran): nothing to do.
set -uo pipefail
PID="${WFE_PID:-}"
# Alive: exists and is not a zombie (an exited orphan its new parent has not reaped yet).
alive() { kill -0 "$1" 2> /dev/null && [ "$(ps -o stat= -p "$1" 2> /dev/null | cut -c1)" != Z ]; }
if [ -z "$PID" ]; then echo "wfe: nothing to stop (WFE_PID is not set)"; exit 0; fi
if ! alive "$PID"; then echo "wfe: pid $PID had already stopped"; exit 0; fi
kill -TERM -- "-$PID" 2> /dev/null || kill -TERM "$PID"
deadline=$((SECONDS + ${WFE_STOP_TIMEOUT:-10}))
while alive "$PID" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
if alive "$PID"; then
  kill -KILL -- "-$PID" 2> /dev/null || kill -KILL "$PID"
  echo "wfe: pid $PID did not stop within ${WFE_STOP_TIMEOUT:-10} s; killed"
  exit 1
fi
[ -n "${WFE_LOG:-}" ] && [ -f "$WFE_LOG" ] && tail -3 "$WFE_LOG"
echo "wfe: stopped (pid $PID)"
