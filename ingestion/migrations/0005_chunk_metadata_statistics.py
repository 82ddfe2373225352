"""Planner statistics on the chunk metadata every search filters by: status and content type.

Without them the planner guesses that `(metadata ->> 'status') = 'published'` (the read
policy of every viewer and API key) keeps 0.5% of a workspace's chunks, and ranks them
all by an exact scan instead of walking the HNSW index: 1 s instead of 10 ms at 100k
chunks (bench/hybrid.py, "ws 99%, viewer"). Expression statistics (PostgreSQL 14+) give it
the real share after ANALYZE.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0004_keyword_index")]

    operations = [
        migrations.RunSQL(
            "CREATE STATISTICS chunk_metadata_status ON ((metadata ->> 'status')) FROM ingestion_chunk;"
            " CREATE STATISTICS chunk_metadata_content_type ON ((metadata ->> 'content_type')) FROM ingestion_chunk;"
            " ANALYZE ingestion_chunk;",
            "DROP STATISTICS IF EXISTS chunk_metadata_status; DROP STATISTICS IF EXISTS chunk_metadata_content_type;",
        ),
    ]
