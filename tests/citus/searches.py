"""Fixed content and a fixed query set, asked of every search kind: what the Citus tests load
into the cluster and into a single-node database, and compare.

The content goes in through the services and the real pipeline (entry_create, ingestion's
sync, the fake embedding provider), as tests/search/pipeline_helpers.py does. Answers are put
in a form that does not depend on the database's ids: titles, scores rounded to 4 places,
facet counts, promoted titles, suggestions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.test import Client

from cms import services
from cms.models import EntryStatus, Workspace
from ingestion.services import chunks_embed_pending
from tests.factories import api_key_make

SLUGS = ("acme", "globex", "initech")
FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
    {"id": "tags", "label": "Tags", "type": "tags", "facet": True},
]
TEXTS = [
    ("Refund policy", "You may return any item within 30 days of delivery for a full refund.", ["policy"]),
    ("Shipping times", "Orders ship within two business days; express shipping arrives the next day.", ["shipping"]),
    ("返品について", "商品到着後30日以内であれば返品できます。返金は5営業日以内に行います。", ["policy", "ja"]),
    ("配送料金", "5000円以上のご注文は送料無料です。沖縄と離島は別料金です。", ["shipping", "ja"]),
    ("Invoice questions", "Invoices are emailed when an order ships. Ask support for a copy of an invoice.", ["billing"]),
    ("Warranty", "Every product carries a one year warranty against defects in materials.", ["policy"]),
    ("Gift cards", "Gift cards never expire and can be used with any payment method.", ["billing"]),
    ("Osaka store", "Our Osaka store opens at ten and closes at eight, every day but Tuesday.", ["stores"]),
]
QUERIES = ["refund", "shipping", "返品", "invoice copy", "warranty defects", "osaka opening hours", "gift"]
KIND_PATHS = ("entries", "semantic", "hybrid", "agentic")


@dataclass
class Tenant:
    workspace: Workspace
    secret: str

    @property
    def slug(self) -> str:
        return self.workspace.slug

    def client(self) -> Client:
        client = Client()
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {self.secret}"
        return client


def content_load(slugs: tuple[str, ...] = SLUGS) -> list[Tenant]:
    """Workspaces with the same texts (each title names its workspace), a draft, a promotion and
    a synonym set each; every chunk embedded."""
    tenants = []
    for number, slug in enumerate(slugs):
        workspace = services.workspace_create(slug=slug, name=slug.title())
        article = services.content_type_create(workspace=workspace, api_id="article", name="Article",
                                               fields=FIELDS, semantic_search_enabled=True)
        entries = []
        for index, (title, body, tags) in enumerate(TEXTS):
            status = EntryStatus.DRAFT if index == number % len(TEXTS) else EntryStatus.PUBLISHED
            entries.append(services.entry_create(
                content_type=article, status=status,
                data={"title": f"{title} ({slug})", "body": body, "tags": tags}))
        services.promotion_create(workspace=workspace, phrase="gift", entry=entries[-2])
        services.synonym_set_create(workspace=workspace, terms=["invoice", "bill", "receipt"])
        _key, secret = api_key_make(workspace, include_drafts=False)
        tenants.append(Tenant(workspace, secret))
    chunks_embed_pending()
    return tenants


def search_request(tenant: Tenant, kind: str, query: str):
    if kind == "entries":
        return tenant.client().get(f"/api/v1/workspaces/{tenant.slug}/search/entries",
                                   {"q": query, "limit": 20, "facets": "tags"})
    body: dict[str, Any] = {"query": query, "top_k": 10, "facets": ["tags", "content_type"]}
    if kind == "agentic":
        body["queries"] = [query, "policy"]
    return tenant.client().post(f"/api/v1/workspaces/{tenant.slug}/search/{kind}", json.dumps(body),
                                content_type="application/json")


def _rounded(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def _without_ids(hit: dict[str, Any]) -> str:
    """An entry hit (full-text) as JSON, without what each database numbers or times its own way."""
    kept = {k: v for k, v in hit.items() if k not in ("id", "created_at", "updated_at") and not k.endswith("_id")}
    return json.dumps(kept, ensure_ascii=False, sort_keys=True)


def answer(response) -> dict[str, Any]:
    """What a search answered, without ids: each hit's title (or its entry's fields) and score, the
    facets, the promoted titles."""
    body = response.json()
    assert response.status_code == 200, body
    hits = body.get("results") or body.get("sources") or body.get("hits") or []
    return {
        "hits": [(hit.get("title") or (hit.get("metadata") or {}).get("title") or _without_ids(hit),
                  _rounded(hit.get("score"))) for hit in hits],
        "facets": body.get("facets"),
        "promoted": [hit.get("id") is not None for hit in hits if hit.get("promoted")],
    }


def answers(tenants: list[Tenant]) -> dict[str, Any]:
    """Every kind's answer to every query in every workspace, and suggestions."""
    found: dict[str, Any] = {}
    for tenant in tenants:
        for kind in KIND_PATHS:
            for query in QUERIES:
                found[f"{tenant.slug} {kind} {query}"] = answer(search_request(tenant, kind, query))
        for prefix in ("ref", "返", "ship"):
            response = tenant.client().get(f"/api/v1/workspaces/{tenant.slug}/search/suggest", {"q": prefix})
            assert response.status_code == 200, response.content
            found[f"{tenant.slug} suggest {prefix}"] = response.json()
    return found
