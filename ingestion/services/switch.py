"""Switching a workspace's embedding model: start a backfill, promote, roll back, abort, prune.

The state is one WorkspaceEmbedding row per workspace (active, target, previous model).
Every command here locks the workspace row FOR UPDATE in its transaction; the vector store
takes KEY SHARE on it (services/vectors.py), so a batch of vectors is never stored or
settled against models that changed under it. The backfill itself is the ordinary embed
loop: `start` reopens the chunks lacking a current target vector (status pending), and the
same workers, claims, leases, hash guards and retry backoff embed them for the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from cms.citus_mode import same_workspace
from cms.models import Workspace
from ingestion.embeddings import BaseEmbeddingBackend, EmbeddingNotConfigured, get_embedding_backend_for_model
from ingestion.models import Chunk, ChunkStatus, ChunkVector, WorkspaceEmbedding
from ingestion.selectors import embedding_model_name, vector_counts
from ingestion.services.vectors import chunks_settle, vectors_reusable


class SwitchError(Exception):
    """A switch command that cannot run as asked; `code` is machine-readable, the message says why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class SwitchOutcome:
    """What a command did: the models after it, chunks reopened or settled, vectors deleted."""

    active: str
    target: str = ""
    previous: str = ""
    reopened: int = 0
    settled: int = 0
    deleted: int = 0
    missing: int = 0  # promote --force: chunks without a current vector of the new active model
    chunks: int = 0


@dataclass
class SwitchEstimate:
    """What a backfill to `model` would send: chunks lacking its vector, distinct texts, cost."""

    model: str
    chunks: int
    texts: int
    requests: int
    tokens: int
    cost_usd: float
    reused: int


def embedding_backend_for_switch(model: str) -> BaseEmbeddingBackend:
    """The backend of `model` (a model name or backend alias); SwitchError if this machine has none."""
    if not model or not model.strip():
        raise SwitchError("model_missing", "Name the model to switch to (--model), e.g. minilm or voyage-3.5.")
    try:
        return get_embedding_backend_for_model(model)
    except EmbeddingNotConfigured as exc:
        raise SwitchError("model_unknown", str(exc)) from exc


def _state_locked(workspace: Workspace) -> WorkspaceEmbedding:
    """The workspace's row locked FOR UPDATE, and its model state (created on first use with the
    configured provider's model active)."""
    Workspace.objects.select_for_update().filter(pk=workspace.pk).first()
    state = WorkspaceEmbedding.objects.filter(workspace=workspace).first()
    if state is None:
        active = embedding_model_name()
        if not active:
            raise SwitchError("not_configured", "No embedding provider is configured, so no model is active.")
        state = WorkspaceEmbedding.objects.create(workspace=workspace, active_model=active)
    return state


def _settle(state: WorkspaceEmbedding) -> tuple[int, int]:
    with connection.cursor() as cursor:
        return chunks_settle(cursor, workspace_id=state.workspace_id, default_model=state.active_model)


def _enqueue(workspace: Workspace) -> None:
    from ingestion.tasks import chunks_embed_enqueue_on_commit

    # Chunks lacking the target model's vector go to the backfill queue; any the step made
    # pending (lacking the active model's), to the content queue.
    chunks_embed_enqueue_on_commit(workspace_id=workspace.pk, backfill=True)
    chunks_embed_enqueue_on_commit(workspace_id=workspace.pk)


@transaction.atomic
def embedding_switch_start(*, workspace: Workspace, model: str) -> SwitchOutcome:
    """Make `model` the workspace's target: every chunk lacking a current vector of it (failed
    ones too) goes back to pending, and the workers backfill it beside the active model."""
    backend = embedding_backend_for_switch(model)
    state = _state_locked(workspace)
    if state.target_model:
        raise SwitchError("switch_running", f"A switch to {state.target_model} is already running in "
                                            f"{workspace.slug}: promote or abort it first.")
    if backend.model_name == state.active_model:
        raise SwitchError("model_active", f"{backend.model_name} is already the active model of {workspace.slug}.")
    state.target_model = backend.model_name
    state.switch_started_at = timezone.now()
    state.switch_covered_at_start = vector_counts(workspace=workspace).get(backend.model_name, 0)
    state.save()
    retried = Chunk.objects.for_workspace(workspace).failed().update(
        status=ChunkStatus.PENDING, attempts=0, last_error="", retry_at=None, updated_at=timezone.now())
    settled, reopened = _settle(state)
    _enqueue(workspace)
    return SwitchOutcome(active=state.active_model, target=state.target_model, previous=state.previous_model,
                         reopened=reopened + retried, settled=settled)


def embedding_switch_estimate(*, workspace: Workspace, model: str) -> SwitchEstimate:
    """Dry run of `start`: writes nothing. Counts the chunks lacking a current vector of `model`,
    their distinct texts minus those whose vector can be copied, and the tokens and cost."""
    backend = embedding_backend_for_switch(model)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT c.content_hash, min(c.text), count(*) FROM {Chunk._meta.db_table} c
                WHERE c.workspace_id = %s AND NOT EXISTS (
                    SELECT 1 FROM {ChunkVector._meta.db_table} v
                    WHERE v.chunk_id = c.id{same_workspace('v', 'c')} AND v.model = %s AND v.content_hash = c.content_hash)
                GROUP BY c.content_hash""",
            [workspace.pk, backend.model_name],
        )
        rows = cursor.fetchall()
    reusable = vectors_reusable(model_name=backend.model_name, keys=[(workspace.pk, h) for h, _, _ in rows])
    texts = [text for h, text, _ in rows if (workspace.pk, h) not in reusable]
    tokens = sum(backend.estimate_tokens(t) for t in texts)
    return SwitchEstimate(model=backend.model_name, chunks=sum(n for _, _, n in rows), texts=len(texts),
                          requests=len(backend.batches(texts)) if texts else 0, tokens=tokens,
                          cost_usd=backend.cost_usd(tokens), reused=len(rows) - len(texts))


@transaction.atomic
def embedding_switch_promote(*, workspace: Workspace, force: bool = False) -> SwitchOutcome:
    """Make the target the active model, in one transaction: from its commit every search reads
    the new model's vectors. Requires every chunk to hold a current target vector unless
    `force`; then the outcome's `missing` says how many do not (they stay pending and are
    embedded for the new model by the workers; until then searches do not find them)."""
    state = _state_locked(workspace)
    if not state.target_model:
        raise SwitchError("no_switch", f"No switch is running in {workspace.slug}: start one first.")
    chunks = Chunk.objects.for_workspace(workspace).count()
    covered = vector_counts(workspace=workspace).get(state.target_model, 0)
    missing = chunks - covered
    if missing and not force:
        raise SwitchError(
            "coverage_incomplete",
            f"{state.target_model} covers {covered} of {chunks} chunks of {workspace.slug}; {missing} still lack "
            f"its vector. Wait for the backfill, or promote with --force.",
        )
    state.previous_model, state.active_model, state.target_model = state.active_model, state.target_model, ""
    state.switch_started_at = None
    state.save()
    settled, reopened = _settle(state)
    if missing:
        _enqueue(workspace)
    return SwitchOutcome(active=state.active_model, previous=state.previous_model, settled=settled,
                         reopened=reopened, missing=missing, chunks=chunks)


@transaction.atomic
def embedding_switch_rollback(*, workspace: Workspace) -> SwitchOutcome:
    """Make the previous model active again at once (its vectors were kept); the model rolled
    back from becomes the previous one, kept until pruned. Chunks edited since lack a current
    vector of the restored model: they go back to pending and are embedded again."""
    state = _state_locked(workspace)
    if state.target_model:
        raise SwitchError("switch_running", f"A switch to {state.target_model} is running in {workspace.slug}: "
                                            f"abort it instead.")
    if not state.previous_model:
        raise SwitchError("nothing_to_roll_back", f"{workspace.slug} has no previous model to roll back to.")
    state.active_model, state.previous_model = state.previous_model, state.active_model
    state.save()
    settled, reopened = _settle(state)
    if reopened:
        _enqueue(workspace)
    return SwitchOutcome(active=state.active_model, previous=state.previous_model, settled=settled,
                         reopened=reopened)


@transaction.atomic
def embedding_switch_abort(*, workspace: Workspace) -> SwitchOutcome:
    """Stop the backfill: the target is dropped and its vectors are deleted; chunks that were
    pending only for it settle back to embedded. A worker mid-batch stores nothing for it."""
    state = _state_locked(workspace)
    if not state.target_model:
        raise SwitchError("no_switch", f"No switch is running in {workspace.slug}.")
    target = state.target_model
    deleted = ChunkVector.objects.filter(workspace=workspace, model=target).delete()[0]
    state.target_model = ""
    state.switch_started_at = None
    if state.previous_model == target:
        state.previous_model = ""
    state.save()
    settled, reopened = _settle(state)
    return SwitchOutcome(active=state.active_model, previous=state.previous_model, settled=settled,
                         reopened=reopened, deleted=deleted)


@transaction.atomic
def embedding_switch_prune(*, workspace: Workspace, model: str) -> SwitchOutcome:
    """Delete the workspace's vectors of `model`, which must be neither active nor target."""
    state = _state_locked(workspace)
    if model in (state.active_model, state.target_model):
        role = "active" if model == state.active_model else "target"
        raise SwitchError("model_in_use", f"{model} is the {role} model of {workspace.slug}; it cannot be pruned.")
    deleted = ChunkVector.objects.filter(workspace=workspace, model=model).delete()[0]
    if not deleted:
        raise SwitchError("model_not_stored", f"{workspace.slug} holds no vectors of {model!r}.")
    if state.previous_model == model:
        state.previous_model = ""
        state.save()
    return SwitchOutcome(active=state.active_model, target=state.target_model, previous=state.previous_model,
                         deleted=deleted)
