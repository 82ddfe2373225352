#!/usr/bin/env python
"""Where keywords end and a question begins (search/engine/words_held.py query_reads_as_question),
read on the fit halves of ../shared/eval/ only.

Run from the repo root (no database, no model):
    .venv/bin/python bench/query_shape.py [--titles N]

For each set it prints, on its fit queries (bench/evalsets.py split "fit": SciFact train, JSQuAD
valid, the fit halves of the others), the share that reads as a question (the word rule of
search/engine/words_held.py does not apply to those), and the same share of the first N distinct
corpus titles (topic names and article titles: what a person types as keywords), for the line
MAX_KEYWORD_WORDS and for the lines around it, so the choice can be seen. The test halves are
never read.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "true")

from evalsets import EVAL_SETS, load_set  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--titles", type=int, default=2000, help="distinct corpus titles read per set")
    parser.add_argument("--cjk-chars", type=int, default=None,
                        help="count a CJK run one word per N characters (default: words_held.CJK_CHARS_PER_WORD)")
    args = parser.parse_args()
    import django

    django.setup()
    from search.engine import words_held

    if args.cjk_chars:
        words_held.CJK_CHARS_PER_WORD = args.cjk_chars
    print(f"a CJK run counts one word per {words_held.CJK_CHARS_PER_WORD} characters")

    lines = (3, 4, 5, 6)
    print("share read as a question: fit queries | corpus titles, by the word-count line (MAX_KEYWORD_WORDS)")
    print(f"{'set':<12} {'queries':>7} {'titles':>6}  " + "  ".join(f"{'<=' + str(n) + ' words':>17}" for n in lines))
    default = words_held.MAX_KEYWORD_WORDS
    for name in EVAL_SETS:
        fit = load_set(name, split="fit")
        titles = list(dict.fromkeys(d["title"].strip() for d in fit.corpus if d.get("title", "").strip()))[:args.titles]
        cells = []
        for line in lines:
            words_held.MAX_KEYWORD_WORDS = line
            questions = sum(words_held.query_reads_as_question(q["text"]) for q in fit.queries) / len(fit.queries)
            title_share = (sum(words_held.query_reads_as_question(t) for t in titles) / len(titles)) if titles else 0
            cells.append(f"{questions:7.1%} | {title_share:7.1%}")
        words_held.MAX_KEYWORD_WORDS = default
        print(f"{name:<12} {len(fit.queries):>7} {len(titles):>6}  " + "  ".join(f"{c:>17}" for c in cells))


if __name__ == "__main__":
    main()
