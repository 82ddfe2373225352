"""Re-folding stored search text after the folding rule changes (cms/folding.py, cms migration 0012).

Generated columns are computed when a row is written, so a new `cms_text_fold` leaves the
stored `search_text` and `search_grams` of existing rows as they were. `entries_refold`
rewrites them in primary-key batches, each its own short transaction, and promotions'
matching keys with them (`phrase_key`; the phrase as typed stays). Safe to run again (it writes
the same values).
"""

from __future__ import annotations

from django.db import connections, transaction

from cms.models import promotion_phrase_normalise

REFOLD_BATCH = 500


def entries_refold(*, using: str = "default", batch_size: int = REFOLD_BATCH, promotions: bool = True) -> int:
    """Recompute every entry's generated search columns (`SET data = data`), batch by batch in
    id order; then, unless told not to, promotions' matching keys. Returns how many entries were
    rewritten."""
    connection = connections[using]
    done, last_id = 0, 0
    while True:
        with transaction.atomic(using=using), connection.cursor() as cursor:
            cursor.execute(
                "WITH batch AS (SELECT id, workspace_id FROM cms_entry WHERE id > %s ORDER BY id LIMIT %s)"
                " UPDATE cms_entry e SET data = e.data FROM batch"
                " WHERE e.id = batch.id AND e.workspace_id = batch.workspace_id RETURNING e.id",
                [last_id, batch_size],
            )
            ids = [row[0] for row in cursor.fetchall()]
        if not ids:
            break
        done += len(ids)
        last_id = max(ids)
    if promotions:
        promotions_refold(using=using)
    return done


def promotions_refold(*, using: str = "default") -> int:
    """Store every promotion's matching key (`phrase_key`) as today's rule folds its phrase; of
    two pins of one entry whose phrases now fold alike, the one placed first stays. The phrases
    as typed are not changed. Returns the keys changed and the pins dropped."""
    with transaction.atomic(using=using), connections[using].cursor() as cursor:
        cursor.execute("SELECT id, workspace_id, phrase, phrase_key, entry_id FROM cms_promotion ORDER BY position, id")
        kept: set[tuple[int, str, int]] = set()
        dropped, rekeyed = [], []
        for promotion_id, workspace_id, phrase, stored_key, entry_id in cursor.fetchall():
            key = promotion_phrase_normalise(phrase)
            if (workspace_id, key, entry_id) in kept:
                dropped.append(promotion_id)
                continue
            kept.add((workspace_id, key, entry_id))
            if key != stored_key:
                rekeyed.append((key, promotion_id))
        # The duplicates go first: rekeying one onto its twin would break the unique constraint.
        if dropped:
            cursor.execute("DELETE FROM cms_promotion WHERE id = ANY(%s)", [dropped])
        for key, promotion_id in rekeyed:
            cursor.execute("UPDATE cms_promotion SET phrase_key = %s WHERE id = %s", [key, promotion_id])
    return len(dropped) + len(rekeyed)
