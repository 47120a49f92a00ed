#!/bin/sh
# The image's entrypoint (Containerfile, docs/container.md). Options alone (or nothing) run
# `wfe serve`; any other first argument is a wfe command (`keys`, `backup ...`). `exec`: wfe is
# PID 1, so SIGTERM reaches it and it stops the servers and closes the database, then exits 0.
set -eu
case "${1:-}" in
  -V | --version) exec /usr/local/bin/wfe "$@" ;;
  '' | -*) set -- serve "$@" ;;
esac

# A host folder mounted on /data keeps its owner, often not this image's user: said here, with
# the container's remedies, before wfe starts (a file database in WAL mode writes beside itself).
if [ "$1" = serve ]; then
  db="${WFE_DB:-}"
  prev=''
  for a in "$@"; do
    case "$a" in --db=*) db="${a#--db=}" ;; esac
    if [ "$prev" = --db ]; then db="$a"; fi
    prev="$a"
  done
  if [ -n "$db" ]; then
    dir=$(dirname -- "$db")
    uid=$(id -u)
    if [ ! -d "$dir" ]; then
      echo "wfe: --db $db: the folder $dir does not exist in the container. Mount a volume there (-v wfe-data:$dir) or give a path under /data." >&2
      exit 1
    fi
    if [ ! -w "$dir" ] || [ ! -x "$dir" ]; then
      owner=$(stat -c %u "$dir")
      if [ "$uid" = 0 ] || [ "$uid" = "$owner" ]; then
        echo "wfe: --db $db: the folder $dir is read-only in the container (mounted with :ro, or a read-only file system). Mount it writable." >&2
        exit 1
      fi
      echo "wfe: --db $db: the folder $dir is not writable by this container's user (uid $uid; $dir belongs to uid $owner, mode $(stat -c %a "$dir"))." >&2
      echo "     A host folder mounted on $dir keeps its owner: use a named volume (-v wfe-data:$dir), give the folder to uid $uid (chown $uid <folder>), or run with --user $owner." >&2
      exit 1
    fi
  fi
fi
exec /usr/local/bin/wfe "$@"
