"""Writes cms/fold_t2s.txt, the Traditional -> Simplified character table of cms/folding.py,
from OpenCC's `t2s` conversion (requirements.txt pins opencc): `python tools/fold_table.py`.

Each CJK ideograph (the unified blocks, extension A, the compatibility block and the
supplementary planes) is converted alone, so OpenCC's phrase table (TSPhrases: entries of two
or more characters) never applies and the answer is its character table's first candidate
(TSCharacters). Only answers of one character other than the input are kept: the table maps
one character to one character, so folded text has the length of the text as written.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import opencc

RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FA1F), (0x30000, 0x3134F))
OUT = Path(__file__).resolve().parent.parent / "cms" / "fold_t2s.txt"


def t2s_pairs() -> list[tuple[str, str]]:
    converter = opencc.OpenCC("t2s")
    pairs = []
    for low, high in RANGES:
        for code in range(low, high + 1):
            ch = chr(code)
            # A compatibility ideograph (豈 U+F900) converts as its unified twin.
            base = unicodedata.normalize("NFKC", ch)
            converted = converter.convert(base if len(base) == 1 else ch)
            if len(converted) == 1 and converted != ch:
                pairs.append((ch, converted))
    return pairs


def main() -> int:
    pairs = t2s_pairs()
    header = f"# OpenCC {opencc.__version__} t2s, one character at a time (tools/fold_table.py). Traditional<TAB>Simplified.\n"
    OUT.write_text(header + "".join(f"{t}\t{s}\n" for t, s in pairs), encoding="utf-8")
    print(f"{len(pairs)} pairs -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
