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
"$fs" render flock-aquarium --tick 60 --select 0 --size 1280x720 -o "$out/flock.png" \
    --overlay boids --overlay view_radius --overlay neighbours --overlay separation \
    --overlay alignment --overlay cohesion --overlay steering
"$fs" render path-open-list --tick 12 --size 1280x720 -o "$out/path.png" \
    --overlay heights --overlay walls --overlay open --overlay closed --overlay g \
    --overlay h --overlay f --overlay parents --overlay current --overlay open_list
"$fs" render line-of-sight --tick 6 --size 1280x720 -o "$out/line.png" \
    --overlay grid --overlay heights --overlay ideal_line --overlay plan --overlay walked \
    --overlay sight --overlay sight_back --overlay formula --overlay error_table
# The web build in headless Chromium (needs the wasm32 target, clang,
# Node.js and Chromium): the page with a lesson open.
web/build.sh >/dev/null
shots=$(mktemp -d)
node web/browser-check.mjs target/web "$shots" >/dev/null
cp "$shots/lesson.png" "$out/web.png"
rm -rf "$shots"
echo "wrote $out/flock.png $out/path.png $out/line.png $out/web.png"
