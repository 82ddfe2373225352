"""Re-folding stored search text after the folding rule changes (cms/folding.py, cms migration 0012).

Generated columns are computed when a row is written, so a new `cms_text_fold` leaves the
stored `search_text` and `search_grams` of existing rows as they were. `entries_refold`
rewrites them in primary-key batches, each its own short transaction, and promotions'
stored phrases with them. Safe to run again (it writes the same values).
"""

from __future__ import annotations

from django.db import connections, transaction

from cms.models import promotion_phrase_normalise

REFOLD_BATCH = 500


def entries_refold(*, using: str = "default", batch_size: int = REFOLD_BATCH) -> int:
    """Recompute every entry's generated search columns (`SET data = data`), batch by batch in
    id order; then promotions' phrases. Returns how many entries were rewritten."""
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
    promotions_refold(using=using)
    return done


def promotions_refold(*, using: str = "default") -> int:
    """Store every promotion's phrase in today's normal form; of two pins that now share a
    phrase and an entry, the one placed first stays. Returns the phrases changed."""
    with transaction.atomic(using=using), connections[using].cursor() as cursor:
        cursor.execute("SELECT id, workspace_id, phrase, entry_id FROM cms_promotion ORDER BY position, id")
        kept: set[tuple[int, str, int]] = set()
        dropped, renamed = [], []
        for promotion_id, workspace_id, phrase, entry_id in cursor.fetchall():
            folded = promotion_phrase_normalise(phrase)
            if (workspace_id, folded, entry_id) in kept:
                dropped.append(promotion_id)
                continue
            kept.add((workspace_id, folded, entry_id))
            if folded != phrase:
                renamed.append((folded, promotion_id))
        # The duplicates go first: renaming one onto its twin would break the unique constraint.
        if dropped:
            cursor.execute("DELETE FROM cms_promotion WHERE id = ANY(%s)", [dropped])
        for folded, promotion_id in renamed:
            cursor.execute("UPDATE cms_promotion SET phrase = %s WHERE id = %s", [folded, promotion_id])
    return len(dropped) + len(renamed)
