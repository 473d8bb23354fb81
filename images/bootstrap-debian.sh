#!/usr/bin/env bash
# Builds a Debian bookworm image from Debian's packages, for machines that reach Debian's mirrors but no
# container registry: debootstrap (minbase, plus what the trial base needs) into a folder, then
# `docker import`. Usage: images/bootstrap-debian.sh IMAGE_TAG [MIRROR]
set -euo pipefail
tag=${1:?usage: bootstrap-debian.sh IMAGE_TAG [MIRROR]}
mirror=${2:-http://deb.debian.org/debian}

if ! command -v debootstrap >/dev/null 2>&1; then
  echo "bootstrap-debian: debootstrap is missing (apt-get install debootstrap, or run images/docker-up.sh)" >&2
  exit 1
fi
root=$(mktemp -d /tmp/aar-debian-XXXXXX)
trap 'rm -rf "$root"' EXIT
echo "bootstrap-debian: debootstrap bookworm from $mirror (a few minutes)"
# Its phases as they start (Retrieving, Validating, Extracting, Unpacking, Configuring...), one line each;
# the whole output is kept for a failure.
if ! debootstrap --variant=minbase --include=ca-certificates,python3,procps,curl,socat bookworm "$root" "$mirror" 2>&1 \
  | tee "$root.log" | awk '/^I: /{ if ($2 != last) { print "bootstrap-debian: " substr($0, 4); fflush(); last = $2 } }'; then
  tail -n 20 "$root.log" >&2; rm -f "$root.log"; exit 1
fi
rm -f "$root.log"
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
echo "bootstrap-debian: importing the file system into the engine as $tag"
tar -C "$root" -c . | docker import --change 'CMD ["/bin/bash"]' - "$tag" >/dev/null
echo "bootstrap-debian: imported $tag"
