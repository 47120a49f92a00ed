#!/bin/bash
# The image's HEALTHCHECK (Containerfile, docs/container.md): GET /_emulator/health on the US
# port through bash's /dev/tcp (there is no curl in the image). Healthy on 200. A token given
# as WFE_ADMIN_TOKEN is sent. When the control routes are closed to the check (--admin-token as a
# flag: 401; --no-admin: 404), that answer still shows the server up and routing: healthy.
set -u
port="${WFE_PORT_US:-8787}"
if ! exec 3<>"/dev/tcp/127.0.0.1/$port"; then
  echo "nothing listens on 127.0.0.1:$port"
  exit 1
fi
{
  printf 'GET /_emulator/health HTTP/1.0\r\nHost: localhost\r\n'
  if [ -n "${WFE_ADMIN_TOKEN:-}" ]; then printf 'Authorization: Bearer %s\r\n' "$WFE_ADMIN_TOKEN"; fi
  printf '\r\n'
} >&3
if ! read -r -t 2 _ code _ <&3; then
  echo "no answer from 127.0.0.1:$port"
  exit 1
fi
case "$code" in
  200) exit 0 ;;
  401 | 404)
    echo "up; GET /_emulator/health answered $code (control routes closed to the check: give the token as WFE_ADMIN_TOKEN)"
    exit 0
    ;;
  *)
    echo "GET /_emulator/health answered $code"
    exit 1
    ;;
esac
