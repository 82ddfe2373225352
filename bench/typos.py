#!/usr/bin/env python
"""Typo tolerance on judged data: nDCG@10 of keyword and hybrid search on clean and typo'd queries,
with typo tolerance off (today's behaviour) and on.

Run from the repo root, after bench/eval.py has loaded its workspaces:
    BENCH_EVAL_DB=cms_bench_eval_forgiving .venv/bin/python bench/typos.py [--sets ...] [--max-queries N]

Typo'd queries come from a fixed-seed generator (SEED), one change per query:
- English: one edit in one word of 5 or more letters, chosen at random among them:
  deletion, insertion (a keyboard neighbour of the letter), keyboard-neighbour substitution,
  or transposition of two adjacent letters;
- Japanese: a kana variant where the query has kana: a katakana word (2+ characters) typed
  in hiragana, else a long-vowel mark ー typed as "-"; a query with neither stays as it is
  (counted in "changed").
Queries: each set's test split (bench/evalsets.py: SciFact test, JSQuAD test, the test half
of StackFAQ, CovidFAQ and JaQuAD), the first --max-queries of it; `--split fit` reads the fit
split instead (SciFact train, JSQuAD valid, the fit halves), which is what a typo setting may
be chosen on. Nothing is fitted here.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import load_set  # noqa: E402

SEED = 20261201
ALL_SETS = ("scifact", "stackfaq-en", "jsquad-ja", "covidfaq-en", "jaquad-ja")
_KEYBOARD = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
_WORD = re.compile(r"[A-Za-z]{5,}")
_KATAKANA_RUN = re.compile("[\u30a1-\u30fa][\u30a1-\u30fa\u30fc]+")


def _neighbours(ch: str) -> str:
    lower = ch.lower()
    for r, row in enumerate(_KEYBOARD):
        c = row.find(lower)
        if c >= 0:
            near = [row[i] for i in (c - 1, c + 1) if 0 <= i < len(row)]
            for other in (r - 1, r + 1):
                if 0 <= other < len(_KEYBOARD) and c < len(_KEYBOARD[other]):
                    near.append(_KEYBOARD[other][c])
            return "".join(near)
    return "e"


def english_typo(text: str, rng: random.Random) -> str:
    """One edit in one word of 5+ letters (the text unchanged when it has none)."""
    words = list(_WORD.finditer(text))
    if not words:
        return text
    match = rng.choice(words)
    word = match.group(0)
    i = rng.randrange(len(word))
    kind = rng.choice(["delete", "insert", "substitute", "transpose"])
    if kind == "delete":
        typo = word[:i] + word[i + 1:]
    elif kind == "insert":
        typo = word[:i] + rng.choice(_neighbours(word[i])) + word[i:]
    elif kind == "substitute":
        typo = word[:i] + rng.choice(_neighbours(word[i])) + word[i + 1:]
    else:
        i = min(i, len(word) - 2)
        typo = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        if typo == word:
            typo = word[:i] + word[i + 1:]
    return text[: match.start()] + typo + text[match.end():]


def japanese_typo(text: str, rng: random.Random) -> str:
    """A kana variant: a katakana word in hiragana, else ー typed as "-"."""
    runs = list(_KATAKANA_RUN.finditer(text))
    if runs:
        match = rng.choice(runs)
        hira = "".join(chr(ord(ch) - 0x60) if "\u30a1" <= ch <= "\u30f6" else ch for ch in match.group(0))
        return text[: match.start()] + hira + text[match.end():]
    if "ー" in text:
        return text.replace("ー", "-", 1)
    return text


def typo_queries(name: str, queries: list[dict]) -> list[dict]:
    rng = random.Random(f"{SEED}:{name}")
    japanese = name.endswith("-ja")
    return [{**q, "text": (japanese_typo if japanese else english_typo)(q["text"], rng)} for q in queries]


def database_ensure(name: str) -> None:
    """CREATE DATABASE `name` in the embedded cluster unless it exists."""
    from django.conf import settings
    import django
    django.setup()
    from django.db import connection
    settings.DATABASES["default"]["NAME"] = "postgres"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{name}"')
    connection.close()


def workspace_load_keyword_only(data) -> None:
    """The set as eval.py loads it (one published entry per document), chunks and keyword index
    only: hybrid then answers from keywords alone, so only `keyword` is meaningful there."""
    from cms import services as cms_services
    from cms.models import EntryStatus, Workspace
    from ingestion.services import keyword_stats_compact_all
    import eval as evalbench

    slug = f"eval-{data.name}"
    if Workspace.objects.filter(slug=slug).exists():
        return
    workspace = cms_services.workspace_create(slug=slug, name=f"Eval {data.name}")
    content_type = cms_services.content_type_create(workspace=workspace, api_id="doc", name="Document",
                                                    fields=evalbench.FIELDS, semantic_search_enabled=True)
    for doc in data.corpus:
        cms_services.entry_create(content_type=content_type, status=EntryStatus.PUBLISHED,
                                  data={"title": (doc.get("title") or doc["_id"])[:500], "body": doc.get("text") or ""})
    keyword_stats_compact_all([workspace.pk])
    print(f"  {slug}: loaded keyword-only", flush=True)


def workspace_read(slug: str):
    """The workspace, read so that a database of the eval sets loaded before this branch's
    migrations (read only: never migrated here) works too: its row by raw SQL, this branch's
    fields at their defaults, and no synonym sets (their table may not exist there)."""
    from django.db import connection
    from cms.models import Workspace
    from search.engine.forgiving import synonyms

    with connection.cursor() as cursor:
        cursor.execute("SELECT id, slug, name FROM cms_workspace WHERE slug = %s", [slug])
        row = cursor.fetchone()
        cursor.execute("SELECT to_regclass('cms_synonymset') IS NOT NULL AND EXISTS (SELECT 1 FROM"
                       " information_schema.columns WHERE table_name = 'cms_workspace'"
                       " AND column_name = 'typo_one_edit_length')")
        migrated = cursor.fetchone()[0]
    if row is None:
        return None
    if migrated:
        return Workspace.objects.get(pk=row[0])
    print(f"  ({slug}: database without this branch's migrations, read as it is: typo budget defaults, "
          "no synonyms, no trigram index)", flush=True)
    synonyms._cache[row[0]] = (0, [])
    return Workspace(id=row[0], slug=row[1], name=row[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(ALL_SETS))
    parser.add_argument("--max-queries", type=int, default=400)
    parser.add_argument("--methods", default="keyword,hybrid")
    parser.add_argument("--split", choices=("test", "fit"), default="test",
                        help="the queries: the test split (the figures to report) or the fit split (to choose on)")
    parser.add_argument("--show", type=int, default=0, help="print this many typo'd queries per set")
    parser.add_argument("--load", default="", help="sets to load into BENCH_EVAL_DB first (created and "
                        "migrated if missing), embedded by the local model")
    parser.add_argument("--load-keyword-only", default="", help="sets to load without embedding (keyword only)")
    args = parser.parse_args()

    import eval as evalbench
    if args.load or args.load_keyword_only:
        database_ensure(evalbench.EVAL_DB)
    evalbench.django_setup()
    from cms.models import Workspace
    if args.load or args.load_keyword_only:
        from django.core.management import call_command
        call_command("migrate", verbosity=0)
        from ingestion import services
        for name in [n for n in args.load.split(",") if n]:
            evalbench.workspace_load(load_set(name, "test"), services, False)
        for name in [n for n in args.load_keyword_only.split(",") if n]:
            workspace_load_keyword_only(load_set(name, "test"))

    print(f"bench/typos.py  db={evalbench.EVAL_DB}  split={args.split}  seed={SEED}  max queries per set={args.max_queries}  "
          f"loadavg={os.getloadavg()}", flush=True)
    for name in [n.strip() for n in args.sets.split(",") if n.strip()]:
        workspace = workspace_read(f"eval-{name}")
        if workspace is None:
            print(f"{name}: no workspace eval-{name} in {evalbench.EVAL_DB}; skipped", flush=True)
            continue
        data = load_set(name, args.split)
        from cms.models import Entry
        entry_ids = list(Entry.objects.filter(workspace=workspace).order_by("pk").values_list("pk", flat=True))
        entry_to_doc = {pk: doc["_id"] for pk, doc in zip(entry_ids, data.corpus)}
        clean = data.queries[: args.max_queries]
        typod = typo_queries(name, clean)
        changed = sum(1 for a, b in zip(clean, typod) if a["text"] != b["text"])
        qrels = {q["_id"]: data.qrels[q["_id"]] for q in clean}
        for a, b in list(zip(clean, typod))[: args.show]:
            print(f"    {a['text'][:70]!r} -> {b['text'][:70]!r}")
        print(f"{name}: {len(clean)} queries, {changed} typo'd", flush=True)
        for method in [m.strip() for m in args.methods.split(",")]:
            base = evalbench.HYBRID_METHODS[method]
            scores = {}
            for label, queries in (("clean", clean), ("typo", typod)):
                for tolerance in (False, True):
                    started = time.perf_counter()
                    run = evalbench.run_hybrid(workspace, queries, entry_to_doc, {**base, "typo_tolerance": tolerance})
                    ndcg = evalbench.evaluate(qrels, run)["nDCG@10"]
                    scores[(label, tolerance)] = ndcg
                    print(f"  {name:12s} {method:8s} {label:5s} typo_tolerance={'on ' if tolerance else 'off'} "
                          f"nDCG@10={ndcg:.4f}  ({time.perf_counter() - started:.0f} s, loadavg "
                          f"{os.getloadavg()[0]:.1f})", flush=True)
            print(f"  {name:12s} {method:8s} typo'd/clean: off {scores[('typo', False)] / scores[('clean', False)]:.3f}"
                  f"  on {scores[('typo', True)] / scores[('clean', False)]:.3f} (of clean, off);  clean on-off "
                  f"{scores[('clean', True)] - scores[('clean', False)]:+.4f}", flush=True)


if __name__ == "__main__":
    main()
