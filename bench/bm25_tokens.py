"""Do the BM25 index and our tokenizer see the same terms? One hash per eval set, each side.

The keyword leg's BM25 index (pg_textsearch) reads each chunk's terms from
ingestion_keywordtext, written by our tokenizer (ingestion.keywords: folded, stemmed, CJK
bigrams and unigrams) and joined by spaces, through PostgreSQL's `simple` configuration
(ingestion.services.keyword_bm25.TEXT_CONFIG). That is only right if `simple` gives back every
term as it is, as often as it is there. For every eval set, every chunk of its corpus (500
characters, as bench/growth.py cuts them) and every query: our terms and frequencies, and
what `to_tsvector('simple', <the index's text>)` makes of them (lexeme, number of positions),
each hashed in order (SHA-256 over "text number, term, count" lines; our terms as the index
holds them, ingestion.keywords.bm25_index_term). Equal hashes: the index sees our terms. A
difference prints its first texts.

    python bench/bm25_tokens.py [--sets scifact,jsquad-ja]

Needs the embedded server (or DATABASE_URL); no table is read or written.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import bench_django  # noqa: E402
from evalsets import EVAL_SETS, load_set, split_text  # noqa: E402

BATCH = 500


def digest(rows: list[tuple[int, str, int]]) -> str:
    h = hashlib.sha256()
    for number, term, count in sorted(rows):
        h.update(f"{number}\t{term}\t{count}\n".encode())
    return h.hexdigest()[:16]


def postgres_terms(cursor, texts: list[str], config: str) -> list[tuple[int, str, int]]:
    rows: list[tuple[int, str, int]] = []
    for start in range(0, len(texts), BATCH):
        cursor.execute(
            "SELECT d.i - 1 + %s, v.lexeme, coalesce(array_length(v.positions, 1), 0)"
            " FROM unnest(%s::text[]) WITH ORDINALITY AS d(t, i), unnest(to_tsvector(%s::regconfig, d.t)) AS v",
            [start, texts[start:start + BATCH], config])
        rows.extend((int(n), term, int(c)) for n, term, c in cursor.fetchall())
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS))
    args = parser.parse_args()
    bench_django.django_setup("cms")
    from django.db import connection

    from ingestion.keywords import bm25_index_term, keyword_index_terms, keyword_tokens
    from ingestion.services.keyword import keyword_text
    from ingestion.services.keyword_bm25 import TEXT_CONFIG

    all_equal = True
    for name in [n.strip() for n in args.sets.split(",") if n.strip()]:
        started = time.perf_counter()
        data = load_set(name)
        chunks = [piece for doc in data.corpus
                  for piece in split_text(f"{doc.get('title') or ''}. {doc.get('text') or ''}".strip(". "), 500)]
        queries = [q["text"] for q in data.queries]
        for kind, texts, terms_of in (
                ("chunks", chunks, lambda t: keyword_index_terms(t).frequencies),
                ("queries", queries, lambda t: dict(Counter(keyword_tokens(t))))):
            ours_counts = [terms_of(t) for t in texts]
            ours = [(i, bm25_index_term(term), count) for i, counts in enumerate(ours_counts)
                    for term, count in counts.items()]
            with connection.cursor() as cursor:
                theirs = postgres_terms(cursor, [keyword_text(c) for c in ours_counts], TEXT_CONFIG)
            a, b = digest(ours), digest(theirs)
            all_equal &= a == b
            print(f"{name:<12} {kind:<8} {len(texts):>6} texts {len(ours):>8} (text, term) pairs:"
                  f" ours {a}  pg_textsearch's ({TEXT_CONFIG}) {b}  {'equal' if a == b else 'DIFFERENT'}"
                  f"  ({time.perf_counter() - started:.0f} s)", flush=True)
            if a != b:
                mine, pg = Counter(ours), Counter(theirs)
                for row in list((mine - pg) + (pg - mine))[:10]:
                    print("   differs:", row, repr(texts[row[0]][:120]))
    print("every set: the index sees our terms" if all_equal else "some terms differ: see above")


if __name__ == "__main__":
    main()
