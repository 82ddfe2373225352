"""Every key of a tenant table includes workspace_id, so that Citus can distribute the tables by it
(cms/citus_layout.py): a primary key, a unique constraint or a foreign key without it would keep
create_distributed_table from running.

- Primary keys: (id, workspace_id) on entries, assets, promotions, chunks, vectors, usage and
  keyword deltas; (chunk_id, term, workspace_id) on postings. `id` leads, so a lookup by id
  (the ORM's `pk`, still the model's primary key in Django's state: a sequence keeps it unique)
  reads the same index as before.
- Unique constraints: workspace_id added last, for the same reason.
- Foreign keys between tenant tables: (x_id, workspace_id) -> (id, workspace_id), in SQL, the
  ORM's ForeignKey having db_constraint=False (as KeywordPosting's already did). Django's were
  DEFERRABLE INITIALLY DEFERRED with the cascade done by the ORM; so are these. The postings' key
  keeps its ON DELETE CASCADE (migration 0004).

cms_entry's and cms_asset's keys change here, not in cms, because ingestion's foreign keys
point at them: they are dropped (AlterField) before, and made again after.
"""

import django.db.models.deletion
from django.db import migrations, models

# (table, constraint name, columns, referenced table, on delete)
FOREIGN_KEYS = [
    ("cms_promotion", "promotion_entry_fk", "entry_id", "cms_entry", ""),
    ("ingestion_chunk", "chunk_entry_fk", "entry_id", "cms_entry", ""),
    ("ingestion_chunk", "chunk_asset_fk", "asset_id", "cms_asset", ""),
    ("ingestion_chunkvector", "chunk_vector_chunk_fk", "chunk_id", "ingestion_chunk", ""),
    ("ingestion_keywordposting", "keyword_posting_chunk_fk", "chunk_id", "ingestion_chunk", " ON DELETE CASCADE"),
]
ID_TABLES = ["cms_entry", "cms_asset", "cms_promotion", "ingestion_chunk", "ingestion_chunkvector",
             "ingestion_embeddingusage", "ingestion_keywordstatdelta"]


def _primary_keys(columns: str) -> str:
    return "\n".join(f"ALTER TABLE {t} DROP CONSTRAINT {t}_pkey, ADD CONSTRAINT {t}_pkey PRIMARY KEY ({columns});"
                     for t in ID_TABLES)


KEYS_SQL = f"""
ALTER TABLE ingestion_keywordposting DROP CONSTRAINT keyword_posting_chunk_fk;
{_primary_keys("id, workspace_id")}
ALTER TABLE ingestion_keywordposting DROP CONSTRAINT ingestion_keywordposting_pkey,
    ADD CONSTRAINT ingestion_keywordposting_pkey PRIMARY KEY (chunk_id, term, workspace_id);
""" + "\n".join(
    f"ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY ({column}, workspace_id) "
    f"REFERENCES {target} (id, workspace_id){on_delete} DEFERRABLE INITIALLY DEFERRED;"
    for table, name, column, target, on_delete in FOREIGN_KEYS
)

REVERSE_KEYS_SQL = "\n".join(f"ALTER TABLE {table} DROP CONSTRAINT {name};" for table, name, *_ in FOREIGN_KEYS) + f"""
ALTER TABLE ingestion_keywordposting DROP CONSTRAINT ingestion_keywordposting_pkey,
    ADD CONSTRAINT ingestion_keywordposting_pkey PRIMARY KEY (chunk_id, term);
{_primary_keys("id")}
ALTER TABLE ingestion_keywordposting ADD CONSTRAINT keyword_posting_chunk_fk
    FOREIGN KEY (chunk_id) REFERENCES ingestion_chunk (id) ON DELETE CASCADE;
"""


class Migration(migrations.Migration):

    dependencies = [
        ("cms", "0011_promotion_entry_key"),
        ("ingestion", "0010_chunk_vector_inline"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="chunk", name="chunk_unique_entry_position"),
        migrations.RemoveConstraint(model_name="chunk", name="chunk_unique_asset_position"),
        migrations.RemoveConstraint(model_name="chunkvector", name="chunk_vector_unique_model"),
        migrations.AlterField(
            model_name="chunk",
            name="asset",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True,
                                    on_delete=django.db.models.deletion.CASCADE, related_name="chunks",
                                    to="cms.asset"),
        ),
        migrations.AlterField(
            model_name="chunk",
            name="entry",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True,
                                    on_delete=django.db.models.deletion.CASCADE, related_name="chunks",
                                    to="cms.entry"),
        ),
        migrations.AlterField(
            model_name="chunkvector",
            name="chunk",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="vectors", to="ingestion.chunk"),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="keywordposting",
                    name="pk",
                    field=models.CompositePrimaryKey("chunk_id", "term", "workspace_id", blank=True, editable=False,
                                                     primary_key=True, serialize=False),
                ),
            ],
            database_operations=[migrations.RunSQL(KEYS_SQL, REVERSE_KEYS_SQL)],
        ),
        migrations.AddConstraint(
            model_name="chunk",
            constraint=models.UniqueConstraint(condition=models.Q(("entry__isnull", False)),
                                               fields=("entry", "field", "ordinal", "workspace"),
                                               name="chunk_unique_entry_position"),
        ),
        migrations.AddConstraint(
            model_name="chunk",
            constraint=models.UniqueConstraint(condition=models.Q(("asset__isnull", False)),
                                               fields=("asset", "field", "ordinal", "workspace"),
                                               name="chunk_unique_asset_position"),
        ),
        migrations.AddConstraint(
            model_name="chunkvector",
            constraint=models.UniqueConstraint(fields=("chunk", "model", "workspace"),
                                               name="chunk_vector_unique_model"),
        ),
    ]
