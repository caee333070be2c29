#!/usr/bin/env bash
# Packs @agentpad/yjs for publishing: www/yjs/pack.sh <out-dir> writes
# <out-dir>/agentpad-yjs-<version>.tgz and prints its path. Needs www/yjs/dist (tsc).
#
# In the repository the package depends on "@agentpad/core": "file:.." (the package in www/); a
# published package depends on the released @agentpad/core of the same version instead: the
# files are copied to a scratch directory, the dependency is set, and that copy is packed.
set -euo pipefail

[ $# -eq 1 ] || {
  echo "usage: $0 <out-dir>" >&2
  exit 2
}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ -f "$here/dist/index.js" ] || {
  echo "pack.sh: $here/dist is not built (cd www/yjs && ./node_modules/.bin/tsc -p .)" >&2
  exit 1
}
mkdir -p "$1"
out="$(cd "$1" && pwd)"
version="$(node -p 'require(process.argv[1]).version' "$here/../package.json")"
own="$(node -p 'require(process.argv[1]).version' "$here/package.json")"
[ "$version" = "$own" ] || {
  echo "pack.sh: @agentpad/yjs is $own but @agentpad/core is $version; give them the same version" >&2
  exit 1
}
scratch="$(mktemp -d "${TMPDIR:-/tmp}/agentpad-yjs-pack.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
cp -R "$here/package.json" "$here/README.md" "$here/dist" "$here/../../LICENSE-MIT" "$here/../../LICENSE-APACHE" "$scratch/"
(cd "$scratch" && npm pkg set "dependencies.@agentpad/core=$version" && npm pack --silent --pack-destination "$out" >/dev/null)
tarball="$out/agentpad-yjs-$version.tgz"
[ -f "$tarball" ] || {
  echo "pack.sh: npm pack did not write $tarball" >&2
  exit 1
}
echo "$tarball"
