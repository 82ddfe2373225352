"""Chunks (the unit of semantic search) and embedding usage per workspace, model and day.

The chunk table is the record of what is pending: a broker or worker that dies loses
nothing, because a chunk stays `pending` until a worker has stored a current vector for
every model its workspace wants (the active one, and the target while a switch runs).

Vectors live in ChunkVector, one row per (chunk, model). Vectors of different models share
one untyped `vector` column; each model gets its own HNSW index on the expression
`(embedding::vector(N))` restricted to `model = '<name>'` (migration 0006), and a query must
use the same cast and predicate to be served by it.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.contrib.postgres.indexes import GinIndex
from pgvector.django import VectorField

from cms.models import Asset, Entry, Workspace


class SourceKind(models.TextChoices):
    ENTRY = "entry", _("Entry")
    ASSET = "asset", _("Asset")


class ChunkStatus(models.TextChoices):
    PENDING = "pending", _("Pending")  # lacks a current vector of its workspace's active model
    # Searchable (it holds a current active vector) and waiting only for a switch's target model.
    BACKFILL = "backfill", _("Backfill")
    EMBEDDED = "embedded", _("Embedded")
    FAILED = "failed", _("Failed")


QUEUED_STATUSES = (ChunkStatus.PENDING, ChunkStatus.BACKFILL)


class ChunkQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> ChunkQuerySet:
        return self.filter(workspace=workspace)

    def pending(self) -> ChunkQuerySet:
        return self.filter(status=ChunkStatus.PENDING)

    def backfill(self) -> ChunkQuerySet:
        return self.filter(status=ChunkStatus.BACKFILL)

    def queued(self) -> ChunkQuerySet:
        """Waiting for a worker: pending, or backfilling a switch's target."""
        return self.filter(status__in=QUEUED_STATUSES)

    def embedded(self) -> ChunkQuerySet:
        return self.filter(status=ChunkStatus.EMBEDDED)

    def failed(self) -> ChunkQuerySet:
        return self.filter(status=ChunkStatus.FAILED)


class Chunk(models.Model):
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    source_kind = models.CharField(max_length=8, choices=SourceKind.choices)
    # The database's foreign keys include workspace_id on both sides, (entry_id, workspace_id) ->
    # cms_entry (id, workspace_id), as Citus needs (migration 0011); the ORM joins on the id.
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, null=True, blank=True, db_constraint=False,
                              related_name="chunks")
    asset = models.ForeignKey(Asset, on_delete=models.CASCADE, null=True, blank=True, db_constraint=False,
                              related_name="chunks")
    # The entry field id the text came from; "body" for an asset.
    field = models.CharField(max_length=64)
    ordinal = models.PositiveIntegerField()
    text = models.TextField()
    # sha256 of `text` (hex): unchanged text keeps its vector; a vector whose chunk's hash
    # changed meanwhile is discarded.
    content_hash = models.CharField(max_length=64)
    token_estimate = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=500, blank=True)
    # What filters may match on: content_type, status, source_kind, and entry field values.
    metadata = models.JSONField(default=dict)

    status = models.CharField(max_length=16, choices=ChunkStatus.choices, default=ChunkStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    # A worker's claim on a pending chunk: others skip it until the lease expires.
    leased_until = models.DateTimeField(null=True, blank=True)
    # After a transient provider error (outage, rate limit): not claimed again before this time.
    # Backs off exponentially with `attempts`; such a chunk is never failed, only delayed.
    retry_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ChunkQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(source_kind=SourceKind.ENTRY, entry__isnull=False, asset__isnull=True)
                    | models.Q(source_kind=SourceKind.ASSET, asset__isnull=False, entry__isnull=True)
                ),
                name="chunk_one_source",
            ),
            models.UniqueConstraint(
                fields=["entry", "field", "ordinal", "workspace"],
                condition=models.Q(entry__isnull=False),
                name="chunk_unique_entry_position",
            ),
            models.UniqueConstraint(
                fields=["asset", "field", "ordinal", "workspace"],
                condition=models.Q(asset__isnull=False),
                name="chunk_unique_asset_position",
            ),
        ]
        indexes = [
            # Workers claim pending chunks oldest first.
            models.Index(
                fields=["created_at", "id"],
                condition=models.Q(status="pending"),
                name="chunk_pending_queue",
            ),
            # A switch's backfill, claimed after every pending chunk.
            models.Index(
                fields=["created_at", "id"],
                condition=models.Q(status="backfill"),
                name="chunk_backfill_queue",
            ),
            # The oldest pending chunk's age (health, /metrics, the status pages), read at every
            # health poll: the first entry of this index, not a scan of every pending chunk.
            models.Index(fields=["updated_at"], condition=models.Q(status="pending"), name="chunk_pending_age"),
            models.Index(fields=["workspace", "status"], name="chunk_ws_status"),
            # Containment on metadata (`metadata @> {"fields": {"tags": ["new"]}}`): the tags
            # filters (search/contract/filter_language.py) and facet counts. Searches always AND workspace_id;
            # under Citus each shard (a set of workspaces) has its own copy of the index.
            GinIndex(fields=["metadata"], opclasses=["jsonb_path_ops"], name="chunk_metadata_gin"),
        ]

    def __str__(self) -> str:
        return f"{self.title or self.source_kind} #{self.ordinal} ({self.field})"


class ChunkVector(models.Model):
    """One model's vector of one chunk, and the hash of the text it was made from.

    Editing a chunk's text deletes its vectors in the same transaction (services/sync.py),
    and a vector is stored only while the chunk still has the hash it was made from, so a
    search may join on the chunk id alone. A vector of the same hash in the same workspace
    is copied instead of embedded again.
    """

    # The database's foreign key is (chunk_id, workspace_id) -> ingestion_chunk (id, workspace_id) (migration 0011).
    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE, db_constraint=False, related_name="vectors")
    # Denormalised from the chunk: per-workspace counts and reuse lookups read only this table.
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, db_index=False, related_name="+")
    model = models.CharField(max_length=100)
    dimensions = models.PositiveIntegerField()
    embedding = VectorField()  # untyped: dimensions vary by model
    content_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["chunk", "model", "workspace"], name="chunk_vector_unique_model")]
        indexes = [
            # Coverage per workspace and model, and reuse by (workspace, model, hash).
            models.Index(fields=["workspace", "model", "content_hash"], name="chunk_vector_ws_model_hash"),
        ]

    def __str__(self) -> str:
        return f"{self.chunk_id} {self.model}"


class WorkspaceEmbedding(models.Model):
    """A workspace's embedding models: the active one answers every query; the target, while
    a switch runs, is being backfilled; the previous one is what `rollback` returns to.

    No row means the configured provider's model is active and no switch ever ran.
    """

    workspace = models.OneToOneField(Workspace, on_delete=models.CASCADE, primary_key=True, related_name="+")
    active_model = models.CharField(max_length=100)
    target_model = models.CharField(max_length=100, blank=True)
    previous_model = models.CharField(max_length=100, blank=True)
    # The running switch: when it started and how many chunks had a current target vector then (ETA).
    switch_started_at = models.DateTimeField(null=True, blank=True)
    switch_covered_at_start = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.workspace_id}: {self.active_model}" + (f" -> {self.target_model}" if self.target_model else "")


class EmbeddingUsage(models.Model):
    """Provider usage per workspace, model and UTC day: what was sent and what it cost."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    model = models.CharField(max_length=100)
    day = models.DateField()
    requests = models.PositiveIntegerField(default=0)
    texts = models.PositiveIntegerField(default=0)
    tokens = models.PositiveBigIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=14, decimal_places=6, default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["workspace", "model", "day"], name="embedding_usage_unique_day")
        ]

    def __str__(self) -> str:
        return f"{self.workspace_id} {self.model} {self.day}"


class KeywordPosting(models.Model):
    """One term of one chunk (the keyword index): its frequency, the chunk's length, its BM25 impact.

    Written only by ingestion.services.keyword, in the transaction that writes the chunk;
    replaced, never updated. The database deletes a chunk's postings with it (ON DELETE
    CASCADE), and a statement trigger records every insert and delete in
    KeywordStatDelta, so the statistics follow whatever removed a chunk (see migration
    0003). `length` repeats the chunk's length (the tf of its LENGTH_TERM posting) so
    ranking a term's postings never reads the chunk row. `impact` is the BM25 term weight
    with the workspace's average length at write time: the order in which a common term's
    postings are read (search.engine.legs.keyword scores exactly with the current average).
    """

    # workspace_id last: Citus needs it in every key; chunk_id first keeps a chunk's postings together.
    pk = models.CompositePrimaryKey("chunk_id", "term", "workspace_id")
    # The foreign keys are declared in migrations 0004 and 0011 with ON DELETE CASCADE in the database.
    chunk = models.ForeignKey(Chunk, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                                  related_name="+")
    term = models.TextField(db_collation="C")
    workspace = models.ForeignKey(Workspace, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                                  related_name="+")
    tf = models.IntegerField()
    length = models.IntegerField()
    impact = models.FloatField()

    class Meta:
        indexes = [
            # A term's postings in one workspace, best first, read without touching the table.
            models.Index(fields=["workspace", "term", "-impact"], include=["chunk", "tf", "length"],
                         name="keyword_posting_term_impact"),
        ]


class KeywordText(models.Model):
    """A chunk's keyword terms as one text, the document of the BM25 index (pg_textsearch).

    `terms` holds the chunk's terms from ingestion.keywords (folded, stemmed, CJK bigrams and
    their unigrams), each as often as it occurs, separated by spaces: the index reads it with
    PostgreSQL's `simple` configuration, which keeps such terms as they are
    (bench/bm25_tokens.py checks it on every eval set). Written beside the postings by
    ingestion.services.keyword; the database deletes it with its chunk (ON DELETE CASCADE,
    migration 0016). The index only proposes candidates: search.engine.legs.keyword_bm25.
    """

    pk = models.CompositePrimaryKey("chunk_id", "workspace_id")
    # The foreign key is declared in migration 0016 with ON DELETE CASCADE in the database.
    chunk = models.ForeignKey(Chunk, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                              related_name="+")
    workspace = models.ForeignKey(Workspace, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                                  related_name="+")
    terms = models.TextField()

    class Meta:
        indexes = [
            # A small workspace's rows, for the planner to score them alone (pre-filtering).
            models.Index(fields=["workspace"], name="keyword_text_workspace"),
        ]


class KeywordCounts(models.Model):
    """A term's figures in one workspace: `df` (chunks containing it) and `tf` (its total frequency).
    The columns KeywordStat and KeywordStatDelta share (an abstract model: no table of its own)."""

    workspace = models.ForeignKey(Workspace, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                                  related_name="+")
    term = models.TextField(db_collation="C")
    df = models.BigIntegerField()
    tf = models.BigIntegerField()

    class Meta:
        abstract = True


class KeywordStat(KeywordCounts):
    """Per workspace and term: document frequency (`df`, chunks containing it) and total frequency.

    The LENGTH_TERM row holds the workspace's chunk count (df) and summed length (tf).
    The true figure is this row plus the term's KeywordStatDelta rows; compaction
    (ingestion.services.keyword.keyword_stats_compact) folds deltas in here.
    """

    pk = models.CompositePrimaryKey("workspace_id", "term")

    class Meta:
        # The dictionary's trigram index: typo candidates (search.engine.forgiving.typos) without a scan.
        indexes = [GinIndex(fields=["term"], opclasses=["gin_trgm_ops"], name="keyword_stat_term_trgm")]


class KeywordStatDelta(KeywordCounts):
    """A change to KeywordStat not folded in yet: appended by the posting triggers, one row per
    term and statement, so concurrent saves never wait on each other's statistics rows."""

    class Meta:
        indexes = [models.Index(fields=["workspace", "term"], name="keyword_stat_delta_term"),
                   GinIndex(fields=["term"], opclasses=["gin_trgm_ops"], name="keyword_stat_delta_term_trgm")]


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written by the worker itself (ingestion/heartbeat.py).

    A worker consuming its queues updates `seen_at` every WORKER_HEARTBEAT_SECONDS; it is alive
    while that is younger than WORKER_ALIVE_SECONDS and `stopped_at` is unset (a warm shutdown
    sets it; a killed worker just stops beating). Rows of workers gone for a day are deleted by
    the next beat. Not a tenant table: a worker serves every workspace (a Citus reference table).
    """

    name = models.CharField(max_length=255, unique=True)  # Celery's node name, worker@host
    queues = models.JSONField(default=list)  # the queue names it consumes
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField()
    stopped_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.name
