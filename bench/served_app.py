"""What the benchmarks that serve the app over HTTP share (bench/api.py, bench/soak.py): a
database of their own, a demo workspace with real documents from ../shared/eval, a key,
gunicorn on a fixed port, and percentiles.
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_django import django_setup  # noqa: F401 - the benches' setup, re-exported

REPO_ROOT = Path(__file__).resolve().parent.parent
WORKSPACE = "demo"
DOC_TYPE = "doc"


def ensure_dataset(docs: int) -> None:
    """The demo workspace with `docs` documents of the shared sets, embedded and ANALYZEd (kept between runs)."""
    from django.core.management import call_command
    from django.db import connection

    from cms import services
    from cms.models import ContentType, Entry, EntryStatus, Workspace
    from evalsets import SETS, load_set
    from ingestion.services import chunks_embed_pending

    call_command("migrate", verbosity=0)
    call_command("seed_demo", verbosity=0)
    workspace = Workspace.objects.get(slug=WORKSPACE)
    doc_type = ContentType.objects.filter(workspace=workspace, api_id=DOC_TYPE).first()
    if doc_type is None:
        doc_type = services.content_type_create(
            workspace=workspace, api_id=DOC_TYPE, name="Document", semantic_search_enabled=True,
            fields=[{"id": "title", "label": "Title", "type": "text", "required": True},
                    {"id": "body", "label": "Body", "type": "text"}],
        )
    have = Entry.objects.filter(content_type=doc_type).count()
    if have < docs:
        print(f"Loading {docs - have} documents ...", flush=True)
        per_set = -(-docs // len(SETS))
        corpus = [doc for name in SETS for doc in load_set(name).corpus[:per_set]][have:docs]
        for doc in corpus:
            services.entry_create(content_type=doc_type, status=EntryStatus.PUBLISHED,
                                  data={"title": (doc.get("title") or doc["text"][:60])[:200], "body": doc["text"]})
    started = time.monotonic()
    report = chunks_embed_pending()
    if report.embedded:
        print(f"Embedded {report.embedded} chunks in {time.monotonic() - started:.0f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def bench_api_key(name: str) -> tuple[object, str]:
    """A fresh key for this run (drafts included, as an editor's agent would have)."""
    from cms.models import Workspace
    from cms.services import api_key_create

    return api_key_create(workspace=Workspace.objects.get(slug=WORKSPACE), name=name, include_drafts=True)


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95 and p99."""
    if len(samples) < 2:
        value = samples[0] if samples else float("nan")
        return value, value, value
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return statistics.median(samples), cuts[94], cuts[98]


def start_gunicorn(*, database: str, port: int, workers: int) -> subprocess.Popen:
    """gunicorn on `database` and 127.0.0.1:`port`, once it answers /api/health."""
    from django.db import connection

    params = connection.get_connection_params()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{params.get('user', 'postgres')}@/{database}?host={params['host']}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "API_RATE_LIMIT_KEY": "10000000/min",
        "LOG_LEVEL": "WARNING",
    }
    # DEBUG off: the app refuses to start on static files nobody collected (cms/static_files.py).
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"], cwd=REPO_ROOT,
                   env=env, check=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--backlog", "2048", "--timeout", "120", "--log-level", "warning"],
        cwd=REPO_ROOT, env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/health", headers={"Host": "127.0.0.1"})
            conn.getresponse().read()
            conn.close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("gunicorn did not start")


def production_like_environment(bench: str) -> None:
    """The environment the served app reads, as production's: no DEBUG (which records every
    query), a non-development secret key; loopback HTTP with no TLS proxy; the local model."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", f"{bench}-not-a-secret-" + "x" * 32)
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("EMBEDDING_PROVIDER", "local")
