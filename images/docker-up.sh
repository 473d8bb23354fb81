#!/usr/bin/env bash
# Makes a Docker engine available on a fresh Debian machine (root, as on our CI machines):
# installs debootstrap (for building the base image without a registry) when missing, even where an
# engine already runs, and docker.io when no engine answers and dockerd is missing; starts dockerd in the
# background when no engine answers, and waits for its socket.
# Safe to run again: with an engine running and debootstrap installed it does nothing.
set -euo pipefail

log=${DOCKERD_LOG:-/var/log/aar-dockerd.log}

engine_up() { docker info >/dev/null 2>&1; }

missing=()
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if ! engine_up; then
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
fi
if ((${#missing[@]})); then
  echo "docker-up: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if engine_up; then
  echo "docker-up: an engine is already running"
  exit 0
fi

echo "docker-up: starting dockerd (log: $log)"
nohup dockerd >"$log" 2>&1 &

for _ in $(seq 1 90); do
  if engine_up; then
    echo "docker-up: engine ready ($(docker version --format '{{.Server.Version}}'))"
    exit 0
  fi
  sleep 1
done
echo "docker-up: dockerd did not come up within 90 s; last lines of $log:" >&2
tail -n 20 "$log" >&2
exit 1
