#!/usr/bin/env bash
# Renders every beat of every bundled lesson (or of the lessons named) the
# way a class sees it: `flockstep render LESSON --beat N` at 1280×720 and
# 1920×1080, in English and in every translation the lesson has, into
#
#     OUT/LESSON/beatN-WxH-LANG.png        (default OUT: target/beats)
#
# Look at each picture beside its narration before calling a beat done:
# does it show, without a click, what the words say?
#
#     docs/beats.sh                         # every lesson
#     docs/beats.sh line-error-term         # one lesson
#     OUT=/tmp/b SIZES="1024x600" docs/beats.sh flock-weights
#
# Needs a display, or Xvfb: runs itself under xvfb-run when DISPLAY is unset.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s '-screen 0 3840x2160x24' "$0" "$@"
fi
out="${OUT:-target/beats}"
sizes="${SIZES:-1280x720 1920x1080}"
cargo build --release --quiet
fs=target/release/flockstep
if [ $# -gt 0 ]; then
    lessons="$*"
else
    lessons=$("$fs" lessons | awk 'NR > 3 && NF { print $1 }')
fi
count=0
for id in $lessons; do
    mkdir -p "$out/$id"
    beats=$(grep -c '^\[\[beat\]\]' "lessons/$id.toml")
    langs="en $(grep -o 'translations = { [a-zA-Z-]* =' "lessons/$id.toml" | awk '{ print $4 }' | sort -u | tr '\n' ' ')"
    for n in $(seq 1 "$beats"); do
        for size in $sizes; do
            for lang in $langs; do
                opt=()
                [ "$lang" = en ] || opt=(--lang "$lang")
                "$fs" render "$id" --beat "$n" --size "$size" "${opt[@]}" \
                    -o "$out/$id/beat$n-$size-$lang.png"
                count=$((count + 1))
            done
        done
    done
done
echo "rendered $count pictures into $out"
