#!/usr/bin/env python3
"""Makes flockstep's font, src/viewer/fonts/flockstep-sans.otf: a subset of
Noto Sans CJK JP Regular (SIL Open Font License 1.1; see OFL.txt beside
this file) that draws every bundled lesson in every language it carries,
and what a teacher writing Japanese lessons needs.

It keeps: Latin (ASCII, Latin-1, Latin Extended-A), Greek, punctuation,
super- and subscripts, letterlike symbols and number forms, arrows,
mathematical operators, technical symbols, box drawing, geometric shapes
and miscellaneous symbols; CJK punctuation, hiragana, katakana, the
full-width and half-width forms; every character of JIS X 0208 (its
symbol rows and the 2,965 level-1 kanji); and every character of every
file in lessons/ (so a lesson's rarer kanji are drawn too). Hinting is
dropped (the viewer draws at many sizes, antialiased).

Run it after adding a lesson whose text the glyph test (tests/beats.rs)
says the font cannot draw:

    pip install fonttools
    apt-get install fonts-noto-cjk      # the source font
    python3 src/viewer/fonts/make.py

The output is deterministic for a given source font and fontTools.
"""
import glob
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
OUT = os.path.join(HERE, "flockstep-sans.otf")

BLOCKS = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1
    (0x0100, 0x017F),  # Latin Extended-A
    (0x0370, 0x03FF),  # Greek
    (0x2000, 0x206F),  # general punctuation
    (0x2070, 0x209F),  # super- and subscripts
    (0x2100, 0x214F),  # letterlike symbols
    (0x2150, 0x218F),  # number forms
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators
    (0x2300, 0x23FF),  # miscellaneous technical
    (0x2460, 0x24FF),  # enclosed alphanumerics
    (0x2500, 0x257F),  # box drawing
    (0x25A0, 0x25FF),  # geometric shapes
    (0x2600, 0x26FF),  # miscellaneous symbols
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x309F),  # hiragana
    (0x30A0, 0x30FF),  # katakana
    (0xFF00, 0xFFEF),  # half-width and full-width forms
]


def jis_x_0208():
    """Every character of JIS X 0208: rows 1-8 (symbols, kana, Greek,
    Cyrillic, box drawing) and 16-47 (the level-1 kanji)."""
    out = set()
    for row in list(range(1, 9)) + list(range(16, 48)):
        for cell in range(1, 95):
            try:
                out.add(ord(bytes([0xA0 + row, 0xA0 + cell]).decode("euc_jp")))
            except UnicodeDecodeError:
                pass
    return out


def lesson_characters():
    out = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "lessons", "*.toml"))):
        with open(path, encoding="utf-8") as f:
            out |= {ord(c) for c in f.read() if c >= " "}
    return out


def main():
    if not os.path.exists(SOURCE):
        sys.exit(f"make.py: {SOURCE} is missing: apt-get install fonts-noto-cjk")
    wanted = set()
    for a, b in BLOCKS:
        wanted |= set(range(a, b + 1))
    wanted |= jis_x_0208() | lesson_characters()
    font = TTCollection(SOURCE).fonts[0]  # Noto Sans CJK JP
    have = font.getBestCmap()
    missing = sorted(c for c in lesson_characters() if c not in have)
    if missing:
        sys.exit("make.py: the source font lacks " + ", ".join(f"U+{c:04X}" for c in missing))
    opts = subset.Options()
    opts.hinting = False
    opts.layout_features = ["kern", "palt", "vert"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.recalc_timestamp = False
    s = subset.Subsetter(opts)
    s.populate(unicodes=wanted & set(have))
    s.subset(font)
    # A Modified Version under the OFL: named as such (the copyright and
    # licence records stay).
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = "Flockstep Sans"
        elif record.nameID in (3, 6):
            record.string = "FlockstepSans-Regular"
    font.recalcTimestamp = False
    font.save(OUT + ".partial")
    os.replace(OUT + ".partial", OUT)
    print(f"{OUT}: {len(font.getBestCmap())} characters, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
