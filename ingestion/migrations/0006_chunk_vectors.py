"""Vectors per (chunk, model): the ChunkVector table, each model's HNSW index, and the move.

Every vector on a chunk row moves to ChunkVector with the hash of the text it was made
from (nothing is re-embedded); then the chunk's vector columns and their indexes go.
Each known model gets a partial expression index, the pattern of migration 0002:

    ((embedding::vector(N)) vector_cosine_ops) WHERE model = '<model>'

A query is served by it only if it orders by exactly `(v.embedding::vector(N)) <=> $q` and
filters `v.model = '<model>'` (search/engine/semantic.py does). Adding a model means adding its
index in a new migration, built with `vector_index_sql`.
"""

import django.db.models.deletion
import pgvector.django.vector
from django.db import migrations, models

# (model name, dimensions): every model whose vectors are served by an HNSW index. The fake
# provider's is here because tests and bench/switch.py serve its vectors through the same path.
VECTOR_INDEXES = [
    ("voyage-3.5", 1024),
    ("use-multilingual-v3", 512),
    ("all-minilm-l6-v2", 384),
    ("fake-hash-16", 16),
]
_OLD_INDEXES = [("voyage-3.5", 1024), ("use-multilingual-v3", 512)]


def index_name(model: str) -> str:
    return "chunk_vector_hnsw_" + "".join(ch if ch.isalnum() else "_" for ch in model)


def vector_index_sql(model: str, dimensions: int) -> str:
    return (
        f"CREATE INDEX {index_name(model)} ON ingestion_chunkvector USING hnsw "
        f"((embedding::vector({int(dimensions)})) vector_cosine_ops) "
        f"WITH (m = 16, ef_construction = 64) WHERE model = '{model}'"
    )


def _vector_index_operations():
    for model, dimensions in VECTOR_INDEXES:
        yield migrations.RunSQL(vector_index_sql(model, dimensions), f"DROP INDEX IF EXISTS {index_name(model)}")


def _old_index_drops():
    for model, dimensions in _OLD_INDEXES:
        name = "chunk_hnsw_" + "".join(ch if ch.isalnum() else "_" for ch in model)
        yield migrations.RunSQL(
            f"DROP INDEX IF EXISTS {name}",
            f"CREATE INDEX {name} ON ingestion_chunk USING hnsw ((embedding::vector({dimensions})) "
            f"vector_cosine_ops) WITH (m = 16, ef_construction = 64) WHERE embedding_model = '{model}'",
        )


MOVE_VECTORS = """
INSERT INTO ingestion_chunkvector (chunk_id, workspace_id, model, dimensions, embedding, content_hash, created_at)
SELECT id, workspace_id, embedding_model, coalesce(embedding_dimensions, vector_dims(embedding)), embedding,
       content_hash, coalesce(embedded_at, updated_at)
FROM ingestion_chunk
WHERE embedding IS NOT NULL AND embedding_model <> ''
"""
# Back: each chunk gets its current vector of the workspace's active model (else any current one).
MOVE_VECTORS_BACK = """
UPDATE ingestion_chunk c
SET embedding = v.embedding, embedding_model = v.model, embedding_dimensions = v.dimensions,
    embedded_at = v.created_at
FROM (
    SELECT DISTINCT ON (cv.chunk_id) cv.chunk_id, cv.embedding, cv.model, cv.dimensions, cv.created_at
    FROM ingestion_chunkvector cv
    JOIN ingestion_chunk ch ON ch.id = cv.chunk_id AND ch.content_hash = cv.content_hash
    LEFT JOIN ingestion_workspaceembedding we ON we.workspace_id = cv.workspace_id
    ORDER BY cv.chunk_id, (cv.model = we.active_model) DESC NULLS LAST, cv.created_at DESC
) v
WHERE v.chunk_id = c.id
"""


class Migration(migrations.Migration):

    dependencies = [
        ('cms', '0005_entry_search_grams_per_workspace'),
        ('ingestion', '0005_chunk_metadata_statistics'),
    ]

    operations = [
        migrations.CreateModel(
            name='ChunkVector',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('model', models.CharField(max_length=100)),
                ('dimensions', models.PositiveIntegerField()),
                ('embedding', pgvector.django.vector.VectorField()),
                ('content_hash', models.CharField(max_length=64)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.AddField(
            model_name='chunkvector',
            name='chunk',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='vectors', to='ingestion.chunk'),
        ),
        migrations.AddField(
            model_name='chunkvector',
            name='workspace',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cms.workspace'),
        ),
        migrations.AddIndex(
            model_name='chunkvector',
            index=models.Index(fields=['workspace', 'model', 'content_hash'], name='chunk_vector_ws_model_hash'),
        ),
        migrations.AddConstraint(
            model_name='chunkvector',
            constraint=models.UniqueConstraint(fields=('chunk', 'model'), name='chunk_vector_unique_model'),
        ),
        migrations.CreateModel(
            name='WorkspaceEmbedding',
            fields=[
                ('workspace', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='+', serialize=False, to='cms.workspace')),
                ('active_model', models.CharField(max_length=100)),
                ('target_model', models.CharField(blank=True, max_length=100)),
                ('previous_model', models.CharField(blank=True, max_length=100)),
                ('switch_started_at', models.DateTimeField(blank=True, null=True)),
                ('switch_covered_at_start', models.PositiveIntegerField(default=0)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.RunSQL(MOVE_VECTORS, MOVE_VECTORS_BACK),
        *_old_index_drops(),
        migrations.RemoveIndex(
            model_name='chunk',
            name='chunk_ws_status_model',
        ),
        migrations.RemoveField(
            model_name='chunk',
            name='embedded_at',
        ),
        migrations.RemoveField(
            model_name='chunk',
            name='embedding',
        ),
        migrations.RemoveField(
            model_name='chunk',
            name='embedding_dimensions',
        ),
        migrations.RemoveField(
            model_name='chunk',
            name='embedding_model',
        ),
        migrations.AddIndex(
            model_name='chunk',
            index=models.Index(fields=['workspace', 'status'], name='chunk_ws_status'),
        ),
        *_vector_index_operations(),
    ]
