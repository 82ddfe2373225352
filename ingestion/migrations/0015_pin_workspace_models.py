"""Pin every workspace that holds vectors and never switched to the model of its vectors (issue 37).

Without a WorkspaceEmbedding row a workspace's active model is the configured provider's
(ingestion.selectors.embedding_models). The default provider without a Voyage key became
multilingual-e5-small, so on upgrade a workspace holding only USE vectors would follow the new
default: its searches would find no vector of their model and every chunk would be embedded
again. This gives each such workspace a row whose active model is the one most of its vectors
were made by, so nothing is re-embedded and searches keep answering until an operator moves it
with `embedding_switch`. Workspaces with no vectors get no row and follow the configured default.

One INSERT ... SELECT, one scan of ingestion_chunkvector grouped by workspace_id: on Citus both
tables are distributed by workspace_id and colocated, so it runs on each shard.
"""

from django.db import migrations

PIN_WORKSPACE_MODELS = """
INSERT INTO ingestion_workspaceembedding
    (workspace_id, active_model, target_model, previous_model, switch_started_at, switch_covered_at_start, updated_at)
SELECT DISTINCT ON (per_model.workspace_id) per_model.workspace_id, per_model.model, '', '', NULL, 0, now()
FROM (
    SELECT workspace_id, model, count(*) AS vectors
    FROM ingestion_chunkvector
    GROUP BY workspace_id, model
) per_model
ORDER BY per_model.workspace_id, per_model.vectors DESC, per_model.model
ON CONFLICT (workspace_id) DO NOTHING
"""


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0014_text_fold")]

    # Backwards: no-op. A pinned row says what the earlier code chose for that workspace anyway
    # (its vectors' model), and after the upgrade it cannot be told from a row a switch wrote
    # or changed since; deleting rows would move switched workspaces off their model.
    operations = [migrations.RunSQL(PIN_WORKSPACE_MODELS, migrations.RunSQL.noop)]
