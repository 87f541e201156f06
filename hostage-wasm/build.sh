#!/usr/bin/env bash
# Builds the npm package `hostage-chess` into hostage-wasm/pkg/.
#
#   hostage-wasm/build.sh            release build (opt-level z, fat LTO, wasm-opt -Oz)
#   HOSTAGE_WASM_DEBUG=1 build.sh    skip wasm-opt (faster, bigger)
#
# Steps:
#  1. compile hostage-wasm for wasm32-unknown-unknown. The ordinary route
#     first: a toolchain with the wasm32 target installed (rustup target add
#     wasm32-unknown-unknown). Otherwise the recipe of
#     shared/notes/wasm-toolchain.md: Debian's rustc-web + rust-web-src and
#     cargo's build-std (apt packages installed when missing and we are root).
#  2. wasm-bindgen, the CLI of exactly the version pinned in Cargo.toml,
#     installed once into target/wasm-tools (cached across runs).
#  3. wasm-opt (npm `binaryen`, a devDependency) on the module.
#  4. assemble pkg/: node/ (CommonJS + an ESM wrapper over it: one instance
#     for both module systems), web/ (ES module for browsers and bundlers;
#     index.js initialises with top-level await, hostage.js leaves `init()`
#     to the caller), index.d.ts / index.d.cts, package.json with `exports`.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
TARGET_DIR="${HOSTAGE_WASM_TARGET_DIR:-$ROOT/target/wasm}"
TOOLS="$ROOT/target/wasm-tools"
PKG="$HERE/pkg"
TRIPLE=wasm32-unknown-unknown

log() { printf '[build.sh] %s\n' "$*" >&2; }

# Size matters more than speed for a download; the workspace's release
# profile stays as it is for native builds, so override it for this build.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=z
export CARGO_PROFILE_RELEASE_LTO=fat
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
export CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_DEBUG=false
export CARGO_PROFILE_RELEASE_STRIP=false

# --- 1. compile ------------------------------------------------------------
build_ordinary() {
    command -v rustup >/dev/null 2>&1 || return 1
    rustup target list --installed 2>/dev/null | grep -qx "$TRIPLE" || return 1
    log "wasm32 target installed: ordinary cargo build"
    CARGO_TARGET_DIR="$TARGET_DIR" cargo build --release --target "$TRIPLE" -p hostage-wasm \
        --manifest-path "$ROOT/Cargo.toml"
}

ensure_debian_toolchain() {
    local missing=()
    for p in rustc-web cargo-web rust-web-src lld-22; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if ((${#missing[@]})); then
        if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
            log "need Debian packages ${missing[*]} (or: rustup target add $TRIPLE)"
            return 1
        fi
        log "installing ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

build_recipe() {
    log "no installed wasm32 target: Debian rustc-web + build-std (wasm-toolchain.md)"
    ensure_debian_toolchain
    # rustc-web's rustc is /usr/bin/rustc; rustup's proxies come first on
    # PATH, so name it. RUSTC_BOOTSTRAP lets a stable compiler take -Z flags.
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$TARGET_DIR" \
        /usr/bin/cargo build --release --target "$TRIPLE" -Zbuild-std=std,panic_abort \
        -p hostage-wasm --manifest-path "$ROOT/Cargo.toml"
}

if ! build_ordinary; then
    build_recipe
fi
WASM="$TARGET_DIR/$TRIPLE/release/hostage_wasm.wasm"
[[ -f $WASM ]] || { log "no $WASM"; exit 1; }

# --- 2. wasm-bindgen -------------------------------------------------------
WB_VERSION="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' "$ROOT/Cargo.toml")"
[[ -n $WB_VERSION ]] || { log "wasm-bindgen is not pinned with = in Cargo.toml"; exit 1; }
WB="$TOOLS/bin/wasm-bindgen"
if ! [[ -x $WB ]] || [[ "$("$WB" --version)" != "wasm-bindgen $WB_VERSION" ]]; then
    log "installing wasm-bindgen-cli $WB_VERSION into $TOOLS (once, a few minutes)"
    CARGO_TARGET_DIR="$TOOLS/build" cargo install wasm-bindgen-cli --version "$WB_VERSION" \
        --locked --root "$TOOLS" --force
    rm -rf "$TOOLS/build"
fi

OUT="$TARGET_DIR/bindgen"
rm -rf "$OUT" "$PKG"
for target in nodejs web; do
    "$WB" --target "$target" --out-dir "$OUT/$target" --out-name hostage \
        --remove-name-section --remove-producers-section "$WASM"
done

# --- 3. wasm-opt -----------------------------------------------------------
if [[ ! -x $HERE/node_modules/.bin/wasm-opt || ! -x $HERE/node_modules/.bin/tsc ]]; then
    log "npm install (devDependencies: binaryen, typescript, playwright-core)"
    (cd "$HERE" && npm install --no-audit --no-fund --loglevel=error)
fi
BG="$OUT/web/hostage_bg.wasm"
if [[ -z ${HOSTAGE_WASM_DEBUG:-} ]]; then
    # rustc's default wasm32 features; wasm-opt must be told it may keep them.
    "$HERE/node_modules/.bin/wasm-opt" -Oz --strip-debug --strip-producers \
        --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals --enable-reference-types --enable-multivalue \
        -o "$OUT/opt.wasm" "$BG"
    BG="$OUT/opt.wasm"
fi

# --- 4. assemble pkg/ ------------------------------------------------------
mkdir -p "$PKG/node" "$PKG/web"
cp "$OUT/nodejs/hostage.js" "$PKG/node/hostage.cjs"
cp "$BG" "$PKG/node/hostage_bg.wasm"
cp "$OUT/web/hostage.js" "$OUT/web/hostage.d.ts" "$PKG/web/"
cp "$BG" "$PKG/web/hostage_bg.wasm"
cp "$OUT/nodejs/hostage.d.ts" "$PKG/index.d.ts"
cp "$OUT/nodejs/hostage.d.ts" "$PKG/index.d.cts"
sed -i 's|^/\* @ts-self-types="./hostage.d.ts" \*/$|/* @ts-self-types="../index.d.cts" */|' "$PKG/node/hostage.cjs"
# The engine in a Web Worker (browsers): hostage-chess/worker.
cp "$HERE/js/worker.js" "$HERE/js/worker.d.ts" "$HERE/js/engine-worker.js" "$PKG/web/"

# The exported names, read from the CommonJS build, for the ESM wrappers.
NAMES="$(node -e 'console.log(Object.keys(require(process.argv[1])).join(", "))' "$PKG/node/hostage.cjs")"
cat >"$PKG/node/index.mjs" <<EOF
// Node.js ESM entry: the CommonJS build re-exported, so that import and
// require share one WebAssembly instance.
import { createRequire } from 'node:module';
const hostage = createRequire(import.meta.url)('./hostage.cjs');
export const { $NAMES } = hostage;
EOF
cat >"$PKG/web/index.js" <<EOF
// Browser / bundler entry: fetches and instantiates the module once
// (top-level await), then exports the same API as Node. Where top-level
// await is not available, import 'hostage-chess/init' and call its
// default export first.
import init, { $NAMES } from './hostage.js';
await init({ module_or_path: new URL('./hostage_bg.wasm', import.meta.url) });
export { $NAMES };
EOF

VERSION="$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -1)"
node - "$PKG/package.json" "$VERSION" <<'EOF'
const [file, version] = process.argv.slice(2);
const pkg = {
  name: 'hostage-chess',
  version,
  description: 'Hostage Chess (John Leslie, 1997) rules in WebAssembly: legal moves, exchanges, drops, pseudo-check, FEN, SAN, PGN',
  license: 'MIT OR Apache-2.0',
  keywords: ['chess', 'hostage-chess', 'chess-variant', 'wasm', 'move-generator'],
  type: 'module',
  main: './node/hostage.cjs',
  module: './web/index.js',
  browser: './web/index.js',
  types: './index.d.ts',
  exports: {
    '.': {
      types: { require: './index.d.cts', default: './index.d.ts' },
      node: { import: './node/index.mjs', require: './node/hostage.cjs' },
      browser: './web/index.js',
      import: './web/index.js',
      require: './node/hostage.cjs',
      default: './web/index.js',
    },
    './init': { types: './web/hostage.d.ts', default: './web/hostage.js' },
    './worker': { types: './web/worker.d.ts', default: './web/worker.js' },
    './engine-worker.js': './web/engine-worker.js',
    './hostage_bg.wasm': './web/hostage_bg.wasm',
    './package.json': './package.json',
  },
  files: ['index.d.ts', 'index.d.cts', 'node/', 'web/', 'README.md'],
  sideEffects: ['./web/index.js'],
  engines: { node: '>=18' },
};
require('fs').writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
EOF
cp "$HERE/README.md" "$PKG/README.md"

RAW=$(wc -c <"$PKG/web/hostage_bg.wasm")
GZ=$(gzip -9 -c "$PKG/web/hostage_bg.wasm" | wc -c)
log "pkg/ ready: hostage_bg.wasm $RAW bytes, $GZ bytes gzipped"
echo "wasm size: raw $RAW bytes, gzip -9 $GZ bytes"
