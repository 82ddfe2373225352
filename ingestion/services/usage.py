"""Provider usage per workspace, model and UTC day: requests, texts, tokens and estimated cost."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal

from django.db import connection
from django.utils import timezone

from ingestion.embeddings import BaseEmbeddingBackend
from ingestion.models import EmbeddingUsage


def usage_record(*, workspace_id: int, model: str, requests: int, texts: int, tokens: int, cost: float) -> None:
    """Add to the workspace's usage for today (UTC) with one upsert, safe under concurrency."""
    table = EmbeddingUsage._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {table} (workspace_id, model, day, requests, texts, tokens, cost_usd)
            VALUES (%s, %s, %s, %s, %s, %s, %s)
            ON CONFLICT (workspace_id, model, day) DO UPDATE SET
                requests = {table}.requests + EXCLUDED.requests,
                texts = {table}.texts + EXCLUDED.texts,
                tokens = {table}.tokens + EXCLUDED.tokens,
                cost_usd = {table}.cost_usd + EXCLUDED.cost_usd
            """,
            [workspace_id, model, timezone.now().astimezone(datetime.UTC).date(), requests, texts, tokens,
             Decimal(str(round(cost, 6)))],
        )


def usage_reported_by(backend: BaseEmbeddingBackend) -> tuple[int, int] | None:
    """(requests, tokens) of the backend's last call, if it reports them in `last_call_stats`
    (Voyage reports the tokens it counted, and may split one call into several requests)."""
    stats = getattr(backend, "last_call_stats", None)
    if not stats:
        return None
    get = stats.get if isinstance(stats, dict) else lambda key: getattr(stats, key, None)
    tokens = next((v for v in (get("total_tokens"), get("tokens")) if isinstance(v, int) and v >= 0), None)
    if tokens is None:
        return None
    requests = get("requests")
    return (requests if isinstance(requests, int) and requests > 0 else 1), tokens


def usage_record_call(
    *,
    backend: BaseEmbeddingBackend,
    texts_by_workspace: Mapping[int, Sequence[str]],
    reported: tuple[int, int] | None,
) -> tuple[int, int]:
    """Record one embed call's usage against the workspaces whose texts it carried; return
    (requests, tokens) of the call.

    `reported` is what the provider said the call cost (see usage_reported_by); without it
    tokens are estimated. A call that served several workspaces shares the reported total
    out in proportion to each workspace's estimated tokens.
    """
    if reported is not None and len(texts_by_workspace) == 1:
        requests, total_tokens = reported
        ((workspace_id, texts),) = texts_by_workspace.items()
        shares = {workspace_id: (len(texts), total_tokens)}
    else:
        estimates = {ws: [backend.estimate_tokens(t) for t in texts] for ws, texts in texts_by_workspace.items()}
        requests, total_tokens = reported if reported is not None else (1, sum(map(sum, estimates.values())))
        total_estimate = sum(map(sum, estimates.values())) or 1
        shares = {ws: (len(ests), round(total_tokens * sum(ests) / total_estimate)) for ws, ests in estimates.items()}
    for workspace_id, (text_count, tokens) in shares.items():
        usage_record(
            workspace_id=workspace_id,
            model=backend.model_name,
            requests=requests,
            texts=text_count,
            tokens=tokens,
            cost=backend.cost_usd(tokens),
        )
    return requests, total_tokens


def query_embed(*, backend: BaseEmbeddingBackend, workspace_id: int, text: str) -> list[float]:
    """Embed a search query for the workspace, and record what it cost like document embeddings.

    Raises the backend's errors (EmbeddingProviderError) unrecorded: a failed call made no vector.
    """
    vector = backend.embed_query(text)
    usage_record_call(backend=backend, texts_by_workspace={workspace_id: [text]}, reported=usage_reported_by(backend))
    return vector
