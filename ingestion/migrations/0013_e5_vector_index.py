"""An HNSW index for multilingual-e5-small's vectors (384 dimensions), as migration 0006 gives every known model."""

import importlib

from django.db import migrations

_vectors = importlib.import_module("ingestion.migrations.0006_chunk_vectors")
MODEL, DIMENSIONS = "multilingual-e5-small", 384


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0012_keyword_triggers_on_shards")]

    operations = [
        migrations.RunSQL(_vectors.vector_index_sql(MODEL, DIMENSIONS),
                          f"DROP INDEX IF EXISTS {_vectors.index_name(MODEL)}"),
    ]
