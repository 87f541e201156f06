#!/usr/bin/env bash
# Makes app/ servable as static files: copies the browser build of the npm
# package hostage-chess (hostage-wasm/pkg/web, made by hostage-wasm/build.sh)
# into app/vendor/hostage-chess/ (gitignored).
#
#   app/build.sh            copy; build the package first if pkg/ is missing
#   app/build.sh --rebuild  run hostage-wasm/build.sh even if pkg/ exists
#
# Any web server can then serve app/ (index.html is the entry), and
# `hostage serve` serves it too.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PKG="$ROOT/hostage-wasm/pkg"

if [[ ${1:-} == --rebuild || ! -f $PKG/web/index.js ]]; then
    bash "$ROOT/hostage-wasm/build.sh"
fi

DEST="$HERE/vendor/hostage-chess"
rm -rf "$DEST"
mkdir -p "$DEST"
# The browser build: the entries (index.js, engine.js, puzzles.js load their
# modules with top-level await), the wasm-bindgen glue, the three modules,
# the engine worker with its helper, and the engine's network weights
# (nnue.bin, fetched by network.js for the analysis and the review).
cp "$PKG/web/"*.js "$PKG/web/"*.wasm "$PKG/web/"*.bin "$PKG/package.json" "$DEST/"
echo "app/vendor/hostage-chess: $(du -sh "$DEST" | cut -f1) from $PKG"
