"""What every benchmark does first: Django on a database of its own, and a percentile."""

from __future__ import annotations

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


def corpus_is_loaded(connection: Any, marker_table: str, fingerprint: str) -> bool:
    """Whether the bench's marker table (created if missing; a trusted name) says the database
    already holds the corpus with this fingerprint, so a rerun can skip loading it."""
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {marker_table} (fingerprint text NOT NULL)")
        cursor.execute(f"SELECT fingerprint FROM {marker_table}")
        row = cursor.fetchone()
    return bool(row) and row[0] == fingerprint
