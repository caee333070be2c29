#!/usr/bin/env bash
# Packs @agentpad/mcp for publishing: www/mcp/pack.sh <out-dir> writes
# <out-dir>/agentpad-mcp-<version>.tgz and prints its path.
#
# In the repository the package depends on "@agentpad/core": "file:.." (the package in www/, so
# development and tests use the local build). A published package must depend on the released
# @agentpad/core instead: the files are copied to a scratch directory, the dependency is set to
# the version of www/package.json (which this package's version matches), and that copy is
# packed. Publish with `npm publish <out-dir>/agentpad-mcp-<version>.tgz` after @agentpad/core.
set -euo pipefail

[ $# -eq 1 ] || {
  echo "usage: $0 <out-dir>" >&2
  exit 2
}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
version="$(node -p 'require(process.argv[1]).version' "$here/../package.json")"
own="$(node -p 'require(process.argv[1]).version' "$here/package.json")"
[ "$version" = "$own" ] || {
  echo "pack.sh: @agentpad/mcp is $own but @agentpad/core is $version; give them the same version" >&2
  exit 1
}
scratch="$(mktemp -d "${TMPDIR:-/tmp}/agentpad-mcp-pack.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
cp -R "$here/package.json" "$here/README.md" "$here/server.js" "$here/stdio.js" "$here/bin" "$here/../../LICENSE-MIT" "$here/../../LICENSE-APACHE" "$scratch/"
(cd "$scratch" && npm pkg set "dependencies.@agentpad/core=$version" && npm pack --silent --pack-destination "$out" >/dev/null)
tarball="$out/agentpad-mcp-$version.tgz"
[ -f "$tarball" ] || {
  echo "pack.sh: npm pack did not write $tarball" >&2
  exit 1
}
echo "$tarball"
