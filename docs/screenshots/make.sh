#!/usr/bin/env bash
# Re-renders the README's screenshots with `flockstep render` (one per sim),
# and the web build's page in headless Chromium.
# Needs a display, or Xvfb: runs itself under xvfb-run when DISPLAY is unset.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s '-screen 0 1280x720x24' "$0" "$@"
fi
cargo build --release --quiet
fs=target/release/flockstep
out=docs/screenshots
# The aquarium's clamp beat: each rule's arrow, their sum and the cut.
"$fs" render flock-aquarium --beat 8 --size 1280x720 -o "$out/flock.png"
"$fs" render path-open-list --tick 12 --size 1280x720 -o "$out/path.png" \
    --overlay heights --overlay walls --overlay open --overlay closed --overlay g \
    --overlay h --overlay f --overlay parents --overlay current --overlay open_list
# What if? The parameter panel after alignment was raised to 8 at tick
# 300 in every pane of flock-weights, at the end of the run.
"$fs" render flock-weights --tick 900 --input 300:set:w_alignment=8 --panel --size 1280x720 \
    -o "$out/whatif-panel.png"
# The brush: a wall painted across path-heuristics at tick 40, every
# search going round it.
walls=()
for y in $(seq 0 12); do walls+=(--input "40:wall:14,$y"); done
"$fs" render path-heuristics --tick 499 "${walls[@]}" --brush --size 1280x720 \
    --overlay heights --overlay walls --overlay closed --overlay path -o "$out/whatif-paint.png"
# Two runs side by side: flock-separation, and the same with the
# separation distance raised to 3 at tick 40, twenty ticks after they part.
tmp=$(mktemp -d)
"$fs" record flock-separation -o "$tmp/a.fsr" >/dev/null
"$fs" record flock-separation -o "$tmp/b.fsr" --input 40:set:min_distance=3 >/dev/null
"$fs" render "$tmp/a.fsr" "$tmp/b.fsr" --tick 60 --size 1280x720 -o "$out/compare.png"
rm -rf "$tmp"
# Line of sight over the hill, with its side view.
"$fs" render line-of-sight --beat 4 --size 1280x720 -o "$out/line.png"
# A user's own sim (examples/flow-field) in the default scene: the
# wavefront of its flow field on the Moving AI arena map.
cargo build --release --quiet -p flow-field
target/release/flow-field render examples/flow-field/lessons/flow-field-arena.toml --beat 2 \
    --size 1280x720 -o "$out/flow-field.png"
# And examples/seek-flee with its marks: the cornered fleer's flee and
# containment forces, their clamped sum and the gap to the seeker.
cargo build --release --quiet -p seek-flee
target/release/seek-flee render examples/seek-flee/lessons/seek-flee.toml --beat 3 \
    --size 1280x720 -o "$out/seek-flee.png"
# The web build in headless Chromium (needs the wasm32 target, clang,
# Node.js and Chromium): the page with a lesson open.
web/build.sh >/dev/null
shots=$(mktemp -d)
node web/browser-check.mjs target/web "$shots" >/dev/null
cp "$shots/lesson.png" "$out/web.png"
rm -rf "$shots"
echo "wrote $out/flock.png $out/whatif-panel.png $out/whatif-paint.png $out/path.png $out/line.png $out/flow-field.png $out/seek-flee.png $out/web.png"
