"""Chunk vectors stay in the table row instead of TOAST: toast_tuple_target 8160 on ingestion_chunkvector.

pgvector stores `vector` with EXTERNAL storage, and a row moves its large values out of line
past 2,032 bytes: a 512-dimension vector is 2,052 bytes, so every one of them lived in the
TOAST table (260 MB beside a 17 MB table at 100k chunks) and every distance the executor
computes from the row (exact ranking of a small filtered set, the distance column of an
HNSW answer) first fetched it from there: 7.5 ms for 994 distances (bench/selective.py).
With the target at its maximum, rows up to 8,160 bytes (2,000-dimension vectors) stay
inline. The HNSW index keeps its own copy of each vector, so it is unchanged.

Vectors stored before this migration stay out of line until they are written again (a
re-embed or a model switch writes new rows); the setting changes nothing else.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0009_chunk_metadata_gin")]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE ingestion_chunkvector SET (toast_tuple_target = 8160)",
            "ALTER TABLE ingestion_chunkvector RESET (toast_tuple_target)",
        ),
    ]
