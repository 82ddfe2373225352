"""The search log: one row per search (SearchLog) and per reported click (SearchClick), per workspace.

Both are tenant tables (cms/citus_layout.py): `workspace_id` leads their primary keys, so
every insights query and every prune runs inside one workspace's rows. Rows are written in
batches off the request path (search/insights/search_log.py) and deleted after
SEARCH_LOG_RETENTION_DAYS (search/tasks.py). A click names its search by id, with no foreign
key: a click may be written in the same batch as, or before, the search it follows.
"""

from __future__ import annotations

import uuid

from django.db import models

from cms.models import Workspace


class SearchLog(models.Model):
    """One search as its workspace's insights see it: no raw query, no caller identity."""

    pk = models.CompositePrimaryKey("workspace", "id")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    id = models.UUIDField(default=uuid.uuid4)
    created_at = models.DateTimeField()
    interface = models.CharField(max_length=16)  # api, mcp, admin, command
    kind = models.CharField(max_length=16)  # the search's mode: fulltext, semantic, hybrid, agentic
    # Normalised (NFKC, lower case, single spaces) with e-mail addresses and long digit runs redacted.
    query = models.CharField(max_length=200)
    # `query` folded by the database (cms_text_fold, cms migration 0012: Traditional to
    # Simplified, hiragana to katakana): insights count 退貨 and 退货, or りんご and リンゴ, as one
    # query, and show the form most often typed.
    query_key = models.GeneratedField(
        expression=models.Func(models.F("query"), function="cms_text_fold", output_field=models.TextField()),
        output_field=models.TextField(),
        db_persist=True,
    )
    results = models.PositiveIntegerField()
    latency_ms = models.FloatField()
    # HMAC of the caller ("user:alice", "key:cms_ab12", "operator") with SECRET_KEY: counts
    # distinct callers without naming them.
    caller = models.CharField(max_length=16)

    class Meta:
        indexes = [
            models.Index(fields=["workspace", "created_at"], name="searchlog_ws_created"),
            models.Index(fields=["created_at"], name="searchlog_created"),
        ]


class SearchClick(models.Model):
    """A result someone opened: reported by the admin page, an agent or a front-end."""

    pk = models.CompositePrimaryKey("workspace", "id")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    id = models.UUIDField(default=uuid.uuid4)
    search_id = models.UUIDField()
    created_at = models.DateTimeField()
    entry_id = models.BigIntegerField(null=True)
    chunk_id = models.BigIntegerField(null=True)
    position = models.PositiveIntegerField()

    class Meta:
        indexes = [
            models.Index(fields=["workspace", "search_id"], name="searchclick_ws_search"),
            models.Index(fields=["created_at"], name="searchclick_created"),
        ]
