"""The real app under gunicorn on loopback, with production settings, over two tenants' data.

For the fuzz tests (tests/search/interfaces/api/test_fuzz.py): content is saved through cms.services, chunked
by ingestion's sync and embedded by the fake provider (the server embeds queries with the
same one), then gunicorn serves it with DEBUG off, as docker/ deploys it. Workspace "acme" is
the fuzzer's; every text of "globex" carries GLOBEX_MARKER and every draft of acme carries
DRAFT_MARKER, so a response that holds either has leaked.
"""

from __future__ import annotations

import datetime
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from cms import services
from cms.models import ApiKey, EntryStatus
from ingestion.embeddings import reset_embedding_backends
from ingestion.services import chunks_embed_pending
from tests.factories import ARTICLE_FIELDS, api_key_make
from tests.search.pipeline_helpers import FAKE_BACKEND
from tests.servers import REPO, deployed_gunicorn_options, gunicorn_started

GLOBEX_MARKER = "zanzibar"
DRAFT_MARKER = "unannounced"
# Sent on every request: gunicorn sits behind a TLS proxy in production (SECURE_SSL_REDIRECT).
BEHIND_PROXY = {"X-Forwarded-Proto": "https"}


@dataclass(frozen=True)
class LiveApp:
    base_url: str
    access_log: Path
    key: str  # acme, published content only
    drafts_key: str  # acme, drafts too
    revoked_key: str
    expired_key: str
    globex_key: str


def tenants_seed() -> dict[str, str]:
    """Two workspaces with published and draft entries of several types, chunked and embedded.

    Returns the API keys' secrets by name.
    """
    with override_settings(SEARCH_EMBEDDING_BACKENDS={"default": FAKE_BACKEND}):
        reset_embedding_backends()
        try:
            acme = services.workspace_create(slug="acme", name="Acme")
            globex = services.workspace_create(slug="globex", name="Globex")
            product_fields = [{"id": "name", "label": "Name", "type": "text", "required": True},
                              {"id": "sku", "label": "SKU", "type": "text"},
                              {"id": "price", "label": "Price", "type": "number"}]
            for workspace, marker in ((acme, ""), (globex, f" {GLOBEX_MARKER}")):
                articles = services.content_type_create(workspace=workspace, api_id="article", name="Article",
                                                        fields=[dict(f) for f in ARTICLE_FIELDS],
                                                        semantic_search_enabled=True)
                products = services.content_type_create(workspace=workspace, api_id="product", name="Product",
                                                        fields=product_fields, semantic_search_enabled=True)
                for i, (title, body) in enumerate([
                    ("Refund policy", "Return any item within 30 days for a full refund."),
                    ("Shipping times", "Orders ship from Osaka within two business days. 配送について。"),
                    ("返品について", "商品到着後30日以内であれば返品できます。"),
                    ("Invoices", "Invoices are sent by e-mail; 100% of orders get one."),
                ]):
                    services.entry_create(content_type=articles, status=EntryStatus.PUBLISHED, data={
                        "title": title + marker, "body": f"<p>{body}{marker}</p>", "version": i + 1,
                        "published_on": f"2024-0{i + 1}-15", "featured": i % 2 == 0,
                    })
                services.entry_create(content_type=articles, status=EntryStatus.DRAFT, data={
                    "title": f"Refund plan ({DRAFT_MARKER}){marker}",
                    "body": f"<p>Refunds will take 90 days from next year ({DRAFT_MARKER}).{marker}</p>",
                    "version": 9,
                })
                for sku in ("SKU-001", "SKU-002"):
                    services.entry_create(content_type=products, status=EntryStatus.PUBLISHED,
                                          data={"name": f"Widget {sku}{marker}", "sku": sku, "price": 12.5})
            services.asset_upload(workspace=acme, filename="faq.md", content=b"# FAQ\n\nRefunds take 5 days.")
            services.asset_upload(workspace=globex, filename="faq.md",
                                  content=f"# FAQ\n\nRefunds {GLOBEX_MARKER} take a day.".encode())
            chunks_embed_pending()
        finally:
            reset_embedding_backends()
    expired, expired_secret = api_key_make(acme, name="expired",
                                           expires_at=timezone.now() + datetime.timedelta(days=1))
    ApiKey.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    revoked, revoked_secret = api_key_make(acme, name="revoked")
    services.api_key_revoke(api_key=revoked)
    return {
        "key": api_key_make(acme)[1],
        "drafts_key": api_key_make(acme, include_drafts=True, name="drafts")[1],
        "revoked_key": revoked_secret,
        "expired_key": expired_secret,
        "globex_key": api_key_make(globex)[1],
    }


def production_env(tmp: Path, **extra: str) -> dict[str, str]:
    """gunicorn's environment: DEBUG off, a random SECRET_KEY, the test database, the fake
    provider (so queries embed like the seeded chunks), no rate limits (the fuzzer would
    mostly meet 429s)."""
    from django.conf import settings

    params = connection.get_connection_params()
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        # The keys were made here: the server must hash presented keys with the same secret.
        "API_KEY_HASH_SECRET": settings.API_KEY_HASH_SECRET,
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(tmp / "static"),
        "BROKER_DIR": str(tmp / "broker"),
        "CELERY_BROKER_URL": "memory://",
        "DATABASE_URL": f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}"
                        f"?host={params['host']}",
        "EMBEDDING_PROVIDER": "fake",
        "RERANK_PROVIDER": "fake",
        "API_RATE_LIMIT_KEY": "",
        "API_RATE_LIMIT_USER": "",
        "API_RATE_LIMIT_AUTH_FAILURES": "",
        # Every worker must know each search's results to accept its clicks, and count the same
        # rate limits, as in production: gunicorn refuses to start otherwise (cms/shared_caches.py).
        "THROTTLE_CACHE_URL": "redis://127.0.0.1:6379/14",
        "SEARCH_RESULTS_CACHE_URL": "redis://127.0.0.1:6379/14",
        **extra,
    }


@contextmanager
def gunicorn_serving(env: dict[str, str], log_path: Path, *, workers: int = 2,
                     access_log: Path | None = None) -> Iterator[tuple[str, int]]:
    """gunicorn as docker/Dockerfile runs it, with `workers` sync workers on a free loopback port;
    yields (base URL, master pid).

    With `access_log`, every request is logged there as "<request line> <status>".
    """
    logging = ["--access-logfile", str(access_log), "--access-logformat", "%(r)s %(s)s"] if access_log else []
    with gunicorn_started(env, *deployed_gunicorn_options(), "--graceful-timeout", "5", *logging, workers=workers,
                          log_path=log_path, new_session=True) as (base, process):
        deadline = time.monotonic() + 60
        while True:  # listening is not serving: wait for a worker to answer
            try:
                if requests.get(f"{base}/api/health", headers=BEHIND_PROXY, timeout=5).status_code in (200, 503):
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer within 60 s: {log_path.read_text()[-3000:]}")
            time.sleep(0.2)
        yield base, process.pid


def collectstatic(env: dict[str, str]) -> None:
    collected = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput"], cwd=REPO, env=env,
                               capture_output=True, text=True, timeout=300)
    if collected.returncode != 0:
        raise RuntimeError(collected.stderr)


def database_flush() -> None:
    """Empty every table, as pytest-django does after a transactional test: the sequences go on, so no
    later row takes an id an earlier one had, and a process cache keyed by id (the synonym rules, by
    workspace id and version) never answers for a row it did not read."""
    call_command("flush", interactive=False, verbosity=0, reset_sequences=False)
