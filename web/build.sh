#!/usr/bin/env bash
# Builds the web viewer into a static folder that any web server can host:
#
#     web/build.sh [--bin NAME] [OUT]          (default OUT: target/web)
#
# --bin NAME builds another binary of the workspace that is flockstep with
# sims of its own (`flockstep::main!(my_sim::register)`, as
# examples/seek-flee is): the same page, with those sims registered; open
# their lessons by dropping the file on the page or choosing it.
#
# OUT gets index.html, flockstep.js, macroquad's loader mq_js_bundle.js
# (copied from the macroquad crate, nothing downloaded), flockstep.wasm
# (the viewer with every bundled lesson compiled in) and the font the
# viewer draws text with (flockstep-sans.otf, with its licence). Try it with
#     python3 -m http.server -d target/web 8000
# and open http://127.0.0.1:8000/ (or ?lesson=flock-weights for a lesson).
#
# Needs the wasm32 target (rustup target add wasm32-unknown-unknown) and
# clang (zstd's C sources are compiled for wasm32 with it). The wasm build
# has its own target directory (FLOCKSTEP_WASM_TARGET_DIR, default
# target/wasm) so that it never waits on, or invalidates, native builds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin=flockstep
if [ "${1:-}" = "--bin" ]; then
    if [ -z "${2:-}" ]; then
        echo "web/build.sh: --bin needs a binary's name (such as seek-flee)" >&2
        exit 2
    fi
    bin="$2"
    shift 2
fi
out="${1:-$root/target/web}"
target_dir="${FLOCKSTEP_WASM_TARGET_DIR:-$root/target/wasm}"
cd "$root"

if command -v rustup >/dev/null 2>&1 &&
    ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "web/build.sh: the wasm32 target is missing: rustup target add wasm32-unknown-unknown" >&2
    exit 2
fi
if ! command -v clang >/dev/null 2>&1; then
    echo "web/build.sh: clang is missing (zstd is compiled for wasm32 with it): apt-get install clang" >&2
    exit 2
fi

CARGO_TARGET_DIR="$target_dir" cargo build --profile web --locked \
    --target wasm32-unknown-unknown --bin "$bin"

# macroquad's loader ships inside the crate; take the one of the version
# this build links.
manifest=$(cargo metadata --format-version 1 --locked |
    grep -o '"manifest_path":"[^"]*/macroquad-[0-9][^"]*/Cargo.toml"' | head -n 1 |
    sed -e 's/^"manifest_path":"//' -e 's/"$//')
loader="$(dirname "$manifest")/js/mq_js_bundle.js"
if [ ! -f "$loader" ]; then
    echo "web/build.sh: macroquad's loader not found (looked for $loader)" >&2
    exit 2
fi

mkdir -p "$out"
tmp="$out/.partial"
rm -rf "$tmp"
mkdir "$tmp"
# The page loads flockstep.wasm, whichever binary it is.
cp "$target_dir/wasm32-unknown-unknown/web/$bin.wasm" "$tmp/flockstep.wasm"
cp "$loader" web/index.html web/flockstep.js "$tmp/"
# The font is fetched beside the page (it would make the module larger
# than its budget); its licence goes with it.
cp src/viewer/fonts/flockstep-sans.otf "$tmp/"
cp src/viewer/fonts/OFL.txt "$tmp/flockstep-sans-OFL.txt"
for f in "$tmp"/*; do
    mv -f "$f" "$out/"
done
rmdir "$tmp"
echo "web build in $out:"
ls -l "$out" | sed -n '2,$p'
