"""What the benchmarks share: Django on a database of its own, the bench workspaces, a percentile."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def django_setup(database: str, **settings_overrides: Any) -> None:
    """Django with the default database named `database` (the embedded backend creates it),
    and any settings given here (e.g. CELERY_BROKER_URL="memory://": embedding runs in-process)."""
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = database
    for name, value in settings_overrides.items():
        setattr(settings, name, value)
    # WhiteNoise (DEBUG off) warns in every worker when STATIC_ROOT does not exist yet.
    Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
    import django

    django.setup()


def pct(values: list[float], q: float) -> float:
    """The nearest-rank `q` quantile (0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


def vector_plan(result: Any) -> str:
    """Which plan ranked a search result's vector rows (search.engine.legs.vector_leg.PLAN_*):
    semantic search's `meta.vector_plan`, hybrid's `meta.legs.semantic.plan`; "-" where no
    vector leg ran."""
    meta = result.extra_meta
    if "vector_plan" in meta:
        return meta["vector_plan"]
    return ((meta.get("legs") or {}).get("semantic") or {}).get("plan") or "-"


def fallback_rate(plans: Sequence[str]) -> str:
    """How many of `plans` were the walk's exact fallback (the walk came back short), as a share."""
    from search.engine.legs.vector_leg import PLAN_WALK_SHORT

    short = sum(plan == PLAN_WALK_SHORT for plan in plans)
    return f"{short}/{len(plans)} ({short / max(1, len(plans)):.0%})"


def corpus_is_loaded(connection: Any, marker_table: str, fingerprint: str) -> bool:
    """Whether the bench's marker table (created if missing; a trusted name) says the database
    already holds the corpus with this fingerprint, so a rerun can skip loading it."""
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {marker_table} (fingerprint text NOT NULL)")
        cursor.execute(f"SELECT fingerprint FROM {marker_table}")
        row = cursor.fetchone()
    return bool(row) and row[0] == fingerprint


# The fields of the bench workspaces' `article` type that every bench loading them uses.
ARTICLE_FIELDS = [{"id": "title", "label": "Title", "type": "text"},
                  {"id": "body", "label": "Body", "type": "richtext"},
                  {"id": "bucket", "label": "Bucket", "type": "number"}]


def bench_workspaces(extra_fields: Sequence[dict[str, Any]] = ()) -> tuple[dict[str, int], dict[str, int]]:
    """The workspaces bench-big and bench-small (created on first use), each with an `article`
    type (ARTICLE_FIELDS, then `extra_fields`) and one published entry its chunks belong to:
    (workspace ids, entry ids), each by "big" and "small". A type an older bench made without
    one of `extra_fields` gets it."""
    from cms.models import ContentType, Entry, Workspace

    ws_ids, entry_ids = {}, {}
    for name in ("big", "small"):
        ws, _ = Workspace.objects.get_or_create(slug=f"bench-{name}", defaults={"name": f"Bench {name}"})
        ct, _ = ContentType.objects.get_or_create(
            workspace=ws, api_id="article", defaults={"name": "Article", "fields": [*ARTICLE_FIELDS, *extra_fields]})
        missing = [field for field in extra_fields if not any(f["id"] == field["id"] for f in ct.fields)]
        if missing:
            ct.fields = [*ct.fields, *missing]
            ct.save()
        entry = Entry.objects.filter(workspace=ws).first() or Entry.objects.create(
            workspace=ws, content_type=ct, data={"title": f"Bench {name}"}, status="published")
        ws_ids[name], entry_ids[name] = ws.pk, entry.pk
    return ws_ids, entry_ids


@contextmanager
def keyword_index(value: str):
    """The keyword leg's SEARCH_KEYWORD_INDEX for the block (search.engine.legs.keyword_bm25)."""
    from django.conf import settings

    from search.engine.legs.keyword_bm25 import keyword_bm25_forget

    before = settings.SEARCH_KEYWORD_INDEX
    settings.SEARCH_KEYWORD_INDEX = value
    keyword_bm25_forget()
    try:
        yield
    finally:
        settings.SEARCH_KEYWORD_INDEX = before
        keyword_bm25_forget()
