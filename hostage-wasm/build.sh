#!/usr/bin/env bash
# Builds the npm package `hostage-chess` into hostage-wasm/pkg/.
#
#   hostage-wasm/build.sh            release build (fat LTO; the rules and puzzles
#                                    modules for size: opt-level z, wasm-opt -Oz;
#                                    the engine for speed: opt-level 3, wasm-opt -O3,
#                                    WebAssembly SIMD)
#   HOSTAGE_WASM_DEBUG=1 build.sh    skip wasm-opt (faster, bigger)
#   HOSTAGE_WASM_WHOLE=1 build.sh    also build the three features as one
#                                    module (the package before the split)
#                                    and print its size, for comparison
#   HOSTAGE_WASM_NO_SIMD=1 build.sh  the engine without WebAssembly SIMD (for
#                                    browsers older than SIMD: Chrome 91,
#                                    Firefox 89, Safari 16.4)
#   HOSTAGE_WASM_SIMD_BENCH=1 build.sh
#                                    also build the engine without SIMD into
#                                    target/wasm/simd-bench/ (outside the
#                                    package), for the Chromium comparison
#                                    browser-test/bench-network.mjs
#
# The package is three WebAssembly modules, one per cargo feature of
# hostage-wasm, each loaded only when its entry is imported:
#   rules    hostage-chess           Board, Setup, SVG         (hostage_bg.wasm)
#   engine   hostage-chess/engine    Engine, engineLevels      (hostage_engine_bg.wasm)
#            hostage-chess/worker    EngineWorker: the engine module in a Web Worker
#            hostage-chess/network   fetchNetwork: the network weights (web/nnue.bin)
#   puzzles  hostage-chess/puzzles   Puzzles, courseData       (hostage_puzzles_bg.wasm)
#
# Steps:
#  1. compile hostage-wasm for wasm32-unknown-unknown, once per feature. The
#     ordinary route first: a toolchain with the wasm32 target installed
#     (rustup target add wasm32-unknown-unknown). Otherwise Debian's Rust
#     (rustc-web, cargo-web, rust-web-src; lld-22 for rust-lld) compiles the
#     standard library for wasm32 from source with cargo's -Zbuild-std (apt
#     packages installed when missing and we are root; docs/javascript.md).
#  2. wasm-bindgen, the CLI of exactly the version pinned in Cargo.toml,
#     installed once into target/wasm-tools (cached across runs).
#  3. wasm-opt (npm `binaryen`, a devDependency) on each module.
#  4. assemble pkg/: node/ (CommonJS + an ESM wrapper over it: one instance
#     for both module systems), web/ (ES modules for browsers and bundlers;
#     index.js, engine.js and puzzles.js initialise with top-level await,
#     hostage*.js leave `init()` to the caller), the module that makes
#     move objects for the rules' and engine's glue (js/moves.js: web/moves.js,
#     node/moves.cjs), the engine's network
#     weights web/nnue.bin and hostage-chess/network that fetches them, the
#     declarations (index, engine, puzzles, worker, network: .d.ts and
#     .d.cts), and the committed npm/package.json (its `exports` name every
#     file), README.md and the licence files LICENSE-MIT and LICENSE-APACHE.
#
# Before compiling anything it fails when npm/package.json's version is not
# the workspace version of the root Cargo.toml (the one `version()` returns),
# or when hostage-wasm/LICENSE-* are not byte-identical to the root's.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
TARGET_DIR="${HOSTAGE_WASM_TARGET_DIR:-$ROOT/target/wasm}"
TOOLS="$ROOT/target/wasm-tools"
PKG="$HERE/pkg"
TRIPLE=wasm32-unknown-unknown

log() { printf '[build.sh] %s\n' "$*" >&2; }

# The workspace version: `version` in [workspace.package] of the root Cargo.toml.
VERSION="$("$ROOT/scripts/workspace-version" || true)"
NPM_VERSION="$(node -p 'require(process.argv[1]).version' "$HERE/npm/package.json")"
if [[ -z $VERSION || $NPM_VERSION != "$VERSION" ]]; then
    log "hostage-wasm/npm/package.json has version $NPM_VERSION, the Cargo workspace ${VERSION:-(none found)}: make them equal"
    exit 1
fi
for f in LICENSE-MIT LICENSE-APACHE; do
    if ! cmp -s "$ROOT/$f" "$HERE/$f"; then
        log "hostage-wasm/$f differs from the root $f: cp $f hostage-wasm/"
        exit 1
    fi
done

# Size matters more than speed for a download, except in the engine, whose
# search a player waits for: a Club move is 750,000 nodes, and opt-level z
# made it 2.5 times as slow as opt-level 3 (3.0 s against 1.1 s on average,
# docs/engine.md, "Cost") for a module 20 KB smaller gzipped. Each module
# names its level below; the workspace's release profile stays as it is for
# native builds.
export CARGO_PROFILE_RELEASE_LTO=fat
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
export CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_DEBUG=false
export CARGO_PROFILE_RELEASE_STRIP=false

# name:features:opt-level[:simd], the package's modules. `simd`: compiled
# with WebAssembly SIMD (-C target-feature=+simd128), which the engine's
# network sums pay for: in Chromium the search with the network ran 39%
# more nodes a second with it, the hand-written evaluation 13%
# (docs/javascript.md, "Speed").
ENGINE_SIMD=:simd
if [[ -n ${HOSTAGE_WASM_NO_SIMD:-} ]]; then
    ENGINE_SIMD=
fi
MODULES=(hostage:rules:z "hostage_engine:engine:3$ENGINE_SIMD" hostage_puzzles:puzzles:z)
if [[ -n ${HOSTAGE_WASM_WHOLE:-} ]]; then
    MODULES+=(hostage_whole:rules,engine,puzzles:z)
fi
if [[ -n ${HOSTAGE_WASM_SIMD_BENCH:-} ]]; then
    MODULES+=(hostage_engine_nosimd:engine:3)
fi
name_of() { echo "${1%%:*}"; }
features_of() { local rest="${1#*:}"; echo "${rest%%:*}"; }
level_of() { local rest="${1#*:}"; rest="${rest#*:}"; echo "${rest%%:*}"; }
# 1 for a module built with SIMD, else nothing.
simd_of() { [[ $1 == *:simd ]] && echo 1 || true; }

# --- 1. compile ------------------------------------------------------------
# $1: the cargo features of the module.
build_ordinary() {
    command -v rustup >/dev/null 2>&1 || return 1
    rustup target list --installed 2>/dev/null | grep -qx "$TRIPLE" || return 1
    log "wasm32 target installed: ordinary cargo build (features $1)"
    CARGO_TARGET_DIR="$TARGET_DIR" cargo build --release --target "$TRIPLE" -p hostage-wasm \
        --no-default-features --features "$1" --manifest-path "$ROOT/Cargo.toml"
}

ensure_debian_toolchain() {
    local p missing=()
    for p in rustc-web cargo-web rust-web-src lld-22; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        log "need Debian packages ${missing[*]} (or: rustup target add $TRIPLE)"
        return 1
    fi
    # Waits for apt's lock a bounded time when another process holds it.
    "$ROOT/scripts/apt-install" "${missing[@]}" >/dev/null
}

build_recipe() {
    log "no installed wasm32 target: Debian rustc-web + build-std, features $1"
    ensure_debian_toolchain
    # rustc-web's rustc is /usr/bin/rustc; rustup's proxies come first on
    # PATH, so name it. RUSTC_BOOTSTRAP lets a stable compiler take -Z flags.
    # The rules module (every page loads it; at most 90 KB gzipped) is
    # squeezed further where std is compiled here: -Cpanic=immediate-abort
    # (a panic is the same trap as with panic=abort, without the formatting
    # behind panic messages, which wasm32-unknown-unknown never shows),
    # -Zlocation-detail=none (no source paths for them), and neither
    # multivalue nor reference-types (wasm-bindgen then needs no shims; the
    # JavaScript glue keeps the values in its own table). 98.7 KB -> 89.2 KB
    # gzipped with the wasm-opt options below. Its own target folder keeps
    # both std builds cached.
    local target_dir="$TARGET_DIR" rustflags="${RUSTFLAGS:-}"
    if [[ $1 == rules ]]; then
        target_dir="$TARGET_DIR/rules"
        rustflags+=" -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none"
        rustflags+=" -Ctarget-feature=-multivalue,-reference-types"
    fi
    RUSTFLAGS="$rustflags" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$target_dir" \
        /usr/bin/cargo build --release --target "$TRIPLE" -Zbuild-std=std,panic_abort \
        -p hostage-wasm --no-default-features --features "$1" \
        --manifest-path "$ROOT/Cargo.toml"
    if [[ $target_dir != "$TARGET_DIR" ]]; then
        mkdir -p "$TARGET_DIR/$TRIPLE/release"
        cp "$target_dir/$TRIPLE/release/hostage_wasm.wasm" "$TARGET_DIR/$TRIPLE/release/hostage_wasm.wasm"
    fi
}

# compile FEATURES NAME LEVEL [SIMD]: the module of FEATURES at opt-level
# LEVEL (with WebAssembly SIMD when SIMD is 1), copied to
# $TARGET_DIR/NAME.wasm (cargo writes every feature set to the same
# hostage_wasm.wasm).
compile() {
    if [[ ${4:-} == 1 ]]; then
        # Its own target directory: with build-std the flag applies to std
        # too, and the other modules must not be rebuilt with it.
        (
            export RUSTFLAGS="-C target-feature=+simd128"
            out="$TARGET_DIR"
            TARGET_DIR="$TARGET_DIR/simd"
            compile "$1" "$2" "$3"
            cp "$TARGET_DIR/$2.wasm" "$out/$2.wasm"
        )
        return
    fi
    local built="$TARGET_DIR/$TRIPLE/release/hostage_wasm.wasm"
    rm -f "$built"
    export CARGO_PROFILE_RELEASE_OPT_LEVEL=$3
    build_ordinary "$1" || build_recipe "$1"
    [[ -f $built ]] || { log "no $built"; exit 1; }
    cp "$built" "$TARGET_DIR/$2.wasm"
}

for m in "${MODULES[@]}"; do
    compile "$(features_of "$m")" "$(name_of "$m")" "$(level_of "$m")" "$(simd_of "$m")"
done

# --- 2. wasm-bindgen -------------------------------------------------------
WB_VERSION="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' "$ROOT/Cargo.toml")"
[[ -n $WB_VERSION ]] || { log "wasm-bindgen is not pinned with = in Cargo.toml"; exit 1; }
WB="$TOOLS/bin/wasm-bindgen"
if ! [[ -x $WB ]] || [[ "$("$WB" --version)" != "wasm-bindgen $WB_VERSION" ]]; then
    log "installing wasm-bindgen-cli $WB_VERSION into $TOOLS (once, a few minutes)"
    # The profile settings above (fat LTO, one codegen unit, the last
    # module's opt-level) are the modules', not the tool's.
    env -u CARGO_PROFILE_RELEASE_LTO -u CARGO_PROFILE_RELEASE_CODEGEN_UNITS \
        -u CARGO_PROFILE_RELEASE_PANIC -u CARGO_PROFILE_RELEASE_OPT_LEVEL \
        CARGO_TARGET_DIR="$TOOLS/build" cargo install wasm-bindgen-cli --version "$WB_VERSION" \
        --locked --root "$TOOLS" --force
    rm -rf "$TOOLS/build"
fi

if [[ ! -x $HERE/node_modules/.bin/wasm-opt || ! -x $HERE/node_modules/.bin/tsc ]]; then
    log "npm install (devDependencies: binaryen, typescript, playwright-core)"
    (cd "$HERE" && npm install --no-audit --no-fund --loglevel=error)
fi

OUT="$TARGET_DIR/bindgen"
rm -rf "$OUT" "$PKG"

# --- 3. wasm-opt -----------------------------------------------------------
# bindgen_module NAME LEVEL: wasm-bindgen for node and web, then wasm-opt
# (-Oz for opt-level z, -O3 for 3); the module to ship is $OUT/NAME.wasm.
bindgen_module() {
    local name=$1 level=$2
    for target in nodejs web; do
        "$WB" --target "$target" --out-dir "$OUT/$target" --out-name "$name" \
            --remove-name-section --remove-producers-section "$TARGET_DIR/$name.wasm"
    done
    local bg="$OUT/web/${name}_bg.wasm"
    if [[ -z ${HOSTAGE_WASM_DEBUG:-} ]]; then
        # rustc's default wasm32 features; wasm-opt must be told it may keep them.
        # For the rules module: inlining a function into its one caller only
        # when it is small leaves more alike code for gzip (-2 KB gzipped).
        local extra=()
        [[ $name == hostage ]] && extra=(--converge --one-caller-inline-max-function-size=30)
        "$HERE/node_modules/.bin/wasm-opt" "-O$level" "${extra[@]}" --strip-debug --strip-producers \
            --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
            --enable-mutable-globals --enable-reference-types --enable-multivalue \
            ${ENABLE_SIMD:+--enable-simd} -o "$OUT/$name.wasm" "$bg"
    else
        cp "$bg" "$OUT/$name.wasm"
    fi
}
for m in "${MODULES[@]}"; do
    ENABLE_SIMD="$(simd_of "$m")" bindgen_module "$(name_of "$m")" "$(level_of "$m")"
done
if [[ -n ${HOSTAGE_WASM_SIMD_BENCH:-} ]]; then
    rm -rf "$TARGET_DIR/simd-bench"
    mkdir -p "$TARGET_DIR/simd-bench"
    cp "$OUT/web/hostage_engine_nosimd.js" "$TARGET_DIR/simd-bench/"
    cp "$OUT/hostage_engine_nosimd.wasm" "$TARGET_DIR/simd-bench/hostage_engine_nosimd_bg.wasm"
fi

# --- 4. assemble pkg/ ------------------------------------------------------
mkdir -p "$PKG/node" "$PKG/web"

# The module that makes move objects (src/convert.rs), which the rules' and
# the engine's glue import (copied first: assemble loads the glue): an ES
# module in web/, and in node/ the same with its export line made CommonJS
# (require() in Node.js 18 and 20 loads no ES module).
cp "$HERE/js/moves.js" "$PKG/web/moves.js"
sed 's/^export { \(.*\) };$/module.exports = { \1 };/' "$HERE/js/moves.js" >"$PKG/node/moves.cjs"
if grep -q '^export' "$PKG/node/moves.cjs"; then
    log "js/moves.js: its exports must be one last line \`export { ... };\`"
    exit 1
fi

# assemble NAME DTS ENTRY: module NAME (hostage, hostage_engine,
# hostage_puzzles) with its declarations DTS.d.ts / DTS.d.cts at the package
# root, its Node ESM wrapper node/ENTRY.mjs and its browser entry web/ENTRY.js.
assemble() {
    local name=$1 dts=$2 entry=$3
    # The glue imports the move objects' module (js/moves.js) from the
    # folder wasm-bindgen copies it into, snippets/<crate>-<hash>/js/; the
    # package has it beside the glue instead (above). In CommonJS the
    # require takes a plain string, which bundlers resolve (esbuild leaves a
    # require of String.raw`...` to run time).
    sed "s|require(String\.raw\`\./snippets/[^\`]*/js/moves\.js\`)|require('./moves.cjs')|" \
        "$OUT/nodejs/$name.js" >"$PKG/node/$name.cjs"
    sed "s|\./snippets/[^\`'\"]*/js/moves\.js|./moves.js|" "$OUT/web/$name.js" >"$PKG/web/$name.js"
    if grep -q 'snippets/' "$PKG/node/$name.cjs" "$PKG/web/$name.js"; then
        log "$name.js imports a JavaScript snippet other than js/moves.js: build.sh must copy it"
        exit 1
    fi
    cp "$OUT/$name.wasm" "$PKG/node/${name}_bg.wasm"
    cp "$OUT/$name.wasm" "$PKG/web/${name}_bg.wasm"
    # The engine's declarations import the rules' types from './index.js'
    # (src/types.rs): from index.cjs in CommonJS, one level up from web/.
    cp "$OUT/nodejs/$name.d.ts" "$PKG/$dts.d.ts"
    sed "s|from './index.js'|from './index.cjs'|" "$OUT/nodejs/$name.d.ts" >"$PKG/$dts.d.cts"
    sed "s|from './index.js'|from '../index.js'|" "$OUT/web/$name.d.ts" >"$PKG/web/$name.d.ts"
    sed -i "s|^/\* @ts-self-types=\"./$name.d.ts\" \*/\$|/* @ts-self-types=\"../$dts.d.cts\" */|" \
        "$PKG/node/$name.cjs"
    # The exported names, read from the CommonJS build, for the ESM wrappers.
    local names
    names="$(node -e 'console.log(Object.keys(require(process.argv[1])).join(", "))' "$PKG/node/$name.cjs")"
    cat >"$PKG/node/$entry.mjs" <<END
// Node.js ESM entry: the CommonJS build re-exported, so that import and
// require share one WebAssembly instance.
import { createRequire } from 'node:module';
const hostage = createRequire(import.meta.url)('./$name.cjs');
export const { $names } = hostage;
END
    cat >"$PKG/web/$entry.js" <<END
// Browser / bundler entry: fetches and instantiates ${name}_bg.wasm once,
// when this module is first imported (top-level await), then exports the
// same API as Node. Where top-level await is not available, import the
// matching init entry (package.json exports) and call its default export.
import init, { $names } from './$name.js';
await init({ module_or_path: new URL('./${name}_bg.wasm', import.meta.url) });
export { $names };
END
}
assemble hostage index index
assemble hostage_engine engine engine
assemble hostage_puzzles puzzles puzzles
# The engine in a Web Worker (browsers): hostage-chess/worker. The worker
# loads the engine module itself; the page's own thread loads none for it.
cp "$HERE/js/worker.js" "$HERE/js/worker.d.ts" "$HERE/js/engine-worker.js" "$PKG/web/"

# CommonJS (Node.js) for hostage-chess/worker: EngineWorker needs a Web
# Worker, so require() gets a module whose constructor says so (ESM import
# gets web/worker.js, which throws the same error without a Web Worker).
cp "$HERE/js/worker.cjs" "$PKG/node/worker.cjs"
sed -e "s|from '../index.js'|from './index.cjs'|" -e "s|from '../engine.js'|from './engine.cjs'|" \
    "$HERE/js/worker.d.ts" >"$PKG/worker.d.cts"
cp "$HERE/js/engine-worker.d.ts" "$PKG/web/"

# The network's weights (hostage-engine/data/nnue.bin, the file the native
# engine embeds) are a file of their own, web/nnue.bin: the engine module
# embeds none, so that the bots and the rules never download them.
# hostage-chess/network fetches them once (web: as nnue.bin?v=<digest>, kept
# in the Cache API under the same digest, the first 16 hex digits of the
# file's SHA-256, so that another network is never served from a cache;
# node: read from the disk).
cp "$ROOT/hostage-engine/data/nnue.bin" "$PKG/web/nnue.bin"
NETWORK_DIGEST="$(sha256sum "$PKG/web/nnue.bin" | cut -c1-16)"
sed "s/@HOSTAGE_NETWORK_DIGEST@/$NETWORK_DIGEST/" "$HERE/js/network.js" >"$PKG/web/network.js"
cp "$HERE/js/network.cjs" "$HERE/js/network.mjs" "$PKG/node/"
cp "$HERE/js/network.d.ts" "$PKG/network.d.ts"
cp "$HERE/js/network.d.ts" "$PKG/network.d.cts"

# package.json is committed (npm/package.json), its version checked above.
cp "$HERE/npm/package.json" "$PKG/package.json"
cp "$HERE/LICENSE-MIT" "$HERE/LICENSE-APACHE" "$PKG/"
cp "$HERE/README.md" "$PKG/README.md"

# Sizes: each module raw and gzip -9 of its bytes (what a page downloads
# for it; read from stdin, so that the file's name is not in the count, as
# in scripts/release/npm).
for m in "${MODULES[@]}"; do
    name="$(name_of "$m")"
    RAW=$(wc -c <"$OUT/$name.wasm")
    GZ=$(gzip -9 -c <"$OUT/$name.wasm" | wc -c)
    simd=""
    [[ -n $(simd_of "$m") ]] && simd=", SIMD"
    log "$name.wasm ($(features_of "$m"), opt-level $(level_of "$m")$simd): $RAW bytes, $GZ bytes gzipped"
    echo "wasm size $name: raw $RAW bytes, gzip -9 $GZ bytes"
done
