#!/usr/bin/env bash
# Makes a Docker engine available on a fresh Debian machine (root, as on our CI machines):
# installs debootstrap (for building the base image without a registry) when missing, even where an
# engine already runs, and docker.io when no engine answers and dockerd is missing; starts dockerd in the
# background when no engine answers, and waits for its socket.
# Safe to run again: with an engine running and debootstrap installed it does nothing.
set -euo pipefail

log=${DOCKERD_LOG:-/var/log/aar-dockerd.log}
# Seconds to wait while another apt or dpkg (unattended-upgrades on a fresh machine) holds the package lock.
lock_wait=${DOCKER_UP_LOCK_WAIT:-300}

# apt-get, waiting (at most lock_wait seconds, and saying so) while the package lock is held, instead of
# failing at once with exit 100; any other failure is shown as it is.
apt_get() {
  local waited=0 out
  while true; do
    if out=$(apt-get "$@" 2>&1); then return 0; fi
    if ! grep -qE 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock' <<<"$out"; then
      printf '%s\n' "$out" >&2
      return 1
    fi
    if ((waited >= lock_wait)); then
      echo "docker-up: the package lock is still held after ${lock_wait} s ($(grep -m1 -oE 'held by process [0-9]+[^.]*' <<<"$out" || echo 'by another apt or dpkg')); try again when it is done, or set DOCKER_UP_LOCK_WAIT" >&2
      return 1
    fi
    ((waited)) || echo "docker-up: another apt or dpkg holds the package lock; waiting for it (up to ${lock_wait} s)"
    sleep 2
    waited=$((waited + 2))
  done
}

engine_up() { docker info >/dev/null 2>&1; }

missing=()
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if ! engine_up; then
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
fi
if ((${#missing[@]})); then
  echo "docker-up: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "${missing[@]}"
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
