#!/usr/bin/env bash
# The container image (README "Container", docs/container.md), built and checked with Debian's
# podman on a machine that reaches no image registry:
#   1. podman, runc and debootstrap from Debian's packages when missing;
#   2. the base image `debian:bookworm-slim` when missing: made here with debootstrap from
#      Debian's packages and slimmed as Debian's own slim image is (no docs, man pages, locales);
#   3. the image `wfe` from the Containerfile as is (`--pull=never`; dist/wfe from `npm run build`);
#   4. its checks, test/container.test.ts with WFE_REQUIRE_CONTAINER=1: the HEALTHCHECK,
#      GET /v3/auth/test through the container, a write that outlives the container on a /data
#      volume, a non-root PID 1, the SIGTERM stop time (< 5 s), a bad flag and an unwritable /data
#      (clear message, exit 1), a service name from another container, the README block as pasted;
#   5. the Testcontainers example (examples/testcontainers) over podman's Docker-compatible socket;
#   6. the image size and the time of each step.
# Podman here runs as root with runc and cannot raise rlimits: a containers.conf says so
# (CONTAINERS_CONF, exported to the steps below). With the docker CLI or a registry none of this
# is needed: `docker build -f Containerfile -t wfe .` builds the same file.
set -euo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS
step() { printf '\n== container: %s (%s s so far)\n' "$1" "$((SECONDS - START))"; }

step 'podman, runc, debootstrap'
missing=()
for p in podman runc debootstrap; do command -v "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get install -y "${missing[@]}" || { apt-get update && apt-get install -y "${missing[@]}"; }
fi
podman --version

CONF="$(mktemp)"
WORK="$(mktemp -d)"
SOCK_PID=''
cleanup() {
  if [ -n "$SOCK_PID" ]; then kill "$SOCK_PID" 2>/dev/null || true; wait "$SOCK_PID" 2>/dev/null || true; fi
  rm -rf "$WORK" "$CONF"
}
trap cleanup EXIT
printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n' > "$CONF"
export CONTAINERS_CONF="$CONF"

step 'base image debian:bookworm-slim'
if podman image exists debian:bookworm-slim; then
  echo 'present'
else
  ROOTFS="$WORK/rootfs"
  debootstrap --variant=minbase bookworm "$ROOTFS" http://deb.debian.org/debian
  # What Debian's slim images leave out (debuerreotype-slimify), and the package caches.
  rm -rf "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* \
    "$ROOTFS"/usr/share/groff/* "$ROOTFS"/usr/share/lintian/* "$ROOTFS"/usr/share/linda/* \
    "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
  find "$ROOTFS"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  tar -C "$ROOTFS" -c . | podman import --change 'CMD ["bash"]' - debian:bookworm-slim
  rm -rf "$ROOTFS"
fi

step 'image wfe'
[ -x dist/wfe ] || npm run build
podman build --pull=never --format docker -t wfe -f Containerfile .
SIZE=$(podman image inspect wfe --format '{{.Size}}')

step 'checks (test/container.test.ts)'
WFE_REQUIRE_CONTAINER=1 WFE_IMAGE=wfe node --import tsx --test test/container.test.ts

step 'Testcontainers example'
SOCK="$WORK/podman.sock"
podman system service --time=0 "unix://$SOCK" > "$WORK/service.log" 2>&1 &
SOCK_PID=$!
for _ in $(seq 1 50); do [ -S "$SOCK" ] && break; sleep 0.2; done
[ -S "$SOCK" ] || { cat "$WORK/service.log"; exit 1; }
(
  cd examples/testcontainers
  npm ci --no-audit --no-fund
  DOCKER_HOST="unix://$SOCK" TESTCONTAINERS_RYUK_DISABLED=true WFE_IMAGE=wfe npm test
)

step 'done'
echo "image wfe: $((SIZE / 1000000)) MB ($SIZE bytes; base debian:bookworm-slim $(( $(podman image inspect debian:bookworm-slim --format '{{.Size}}') / 1000000 )) MB)"
echo "container CI time: $((SECONDS - START)) s"
