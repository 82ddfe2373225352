"""Search indexes on chunks: one cosine HNSW index per embedding model, and a trigram GIN on text.

Vectors of several models share the untyped `embedding` column. An HNSW index needs a fixed
dimension, so each model gets a partial expression index:

    ((embedding::vector(N)) vector_cosine_ops) WHERE embedding_model = '<model>'

A query is served by it only if it orders by exactly `(embedding::vector(N)) <=> $q` and
filters `embedding_model = '<model>'` (search/engine/semantic.py does). Adding a model means adding
its index in a new migration, built from CHUNK_VECTOR_INDEXES.
"""

from django.db import migrations

# (model name, dimensions): every model whose vectors are served by an HNSW index.
CHUNK_VECTOR_INDEXES = [
    ("voyage-3.5", 1024),
    ("use-multilingual-v3", 512),
]


def _index_name(model: str) -> str:
    return "chunk_hnsw_" + "".join(ch if ch.isalnum() else "_" for ch in model)


def _vector_index_operations():
    for model, dimensions in CHUNK_VECTOR_INDEXES:
        name = _index_name(model)
        yield migrations.RunSQL(
            sql=(
                f"CREATE INDEX {name} ON ingestion_chunk USING hnsw "
                f"((embedding::vector({dimensions})) vector_cosine_ops) "
                f"WITH (m = 16, ef_construction = 64) "
                f"WHERE embedding_model = '{model}'"
            ),
            reverse_sql=f"DROP INDEX IF EXISTS {name}",
        )


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0001_initial"), ("cms", "0001_extensions")]

    operations = [
        *_vector_index_operations(),
        migrations.RunSQL(
            sql="CREATE INDEX chunk_text_trgm ON ingestion_chunk USING gin (text gin_trgm_ops)",
            reverse_sql="DROP INDEX IF EXISTS chunk_text_trgm",
        ),
    ]
