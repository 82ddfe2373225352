"""Script-variant folding in the chunk searches (cms.folding, cms migration 0012).

- Title suggestions read `chunk_title_fold_prefix` on (workspace_id, cms_text_fold(title)
  text_pattern_ops), so 退 completes 退貨政策 and りん completes リンゴ; it is built
  CONCURRENTLY (writes go on), then `chunk_title_prefix` (lower(title)) is dropped.
- The keyword postings are indexed again from the chunks' text with the folding tokenizer
  (ingestion.keywords), batch by batch (`keyword_index_rebuild`; `manage.py refold` runs it
  too): each chunk keeps its old postings until its batch commits.
"""

from django.db import migrations


def _refold(apps, schema_editor):
    from ingestion.services.keyword import keyword_index_rebuild

    # The postings only: the BM25 index's documents (ingestion_keywordtext) come with 0017, which
    # fills them from these postings.
    keyword_index_rebuild(text=False)


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY; each refold batch commits on its own

    dependencies = [("cms", "0012_text_fold"), ("ingestion", "0013_e5_vector_index")]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS chunk_title_fold_prefix"
            " ON ingestion_chunk (workspace_id, cms_text_fold(title) text_pattern_ops)",
            "DROP INDEX CONCURRENTLY IF EXISTS chunk_title_fold_prefix",
        ),
        migrations.RunSQL(
            "DROP INDEX CONCURRENTLY IF EXISTS chunk_title_prefix",
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS chunk_title_prefix"
            " ON ingestion_chunk (workspace_id, lower(title) text_pattern_ops)",
        ),
        migrations.RunPython(_refold, _refold),
    ]
