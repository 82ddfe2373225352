"""Celery: the broker, the queues, the ingestion sweep and lease, beat's schedule."""

from pathlib import Path

from config.settings.base import BASE_DIR, env
from config.settings.search import SEARCH_LOG_PRUNE_SECONDS

# --- Celery -----------------------------------------------------------------------------
# CELERY_BROKER_URL set: use it (Redis in production). Unset: kombu's filesystem transport
# in var/broker, which needs no service, so `make run` still runs a real worker process.
# Either way the database, not the broker, is the record of what is pending.
BROKER_DIR = Path(env("BROKER_DIR", default=str(BASE_DIR / "var" / "broker")))
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "store_processed": False,
        # Broadcasts (worker remote control); kombu's default is ./control in the working directory.
        "control_folder": str(BROKER_DIR / "control"),
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default="cms")
# Ingestion work runs on named queues, <default>.content, .backfill and .maintenance
# (ingestion/queues.py): a worker started without -Q consumes them all (config/celery.py), and
# production runs a worker per queue (docs/operators.md "Queues and workers").
CELERY_TASK_ROUTES = ("ingestion.queues.route_task",)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = env("CELERY_BEAT_SCHEDULE_FILENAME", default=str(BASE_DIR / "var" / "celerybeat-schedule"))
# How often beat re-enqueues pending chunks whose task was lost.
INGESTION_SWEEP_SECONDS = env.float("INGESTION_SWEEP_SECONDS", default=60.0)
# How long a worker's claim on a batch of chunks lasts. A worker killed mid-batch delays its
# chunks by at most this long; it must exceed the time one batch takes to embed.
INGESTION_LEASE_SECONDS = env.float("INGESTION_LEASE_SECONDS", default=300.0)
# Each worker writes a heartbeat row this often while it consumes (ingestion/heartbeat.py), and
# counts as alive while its last one is younger than WORKER_ALIVE_SECONDS: health, /metrics,
# ingestion_status and the admin read them (docs/operators.md "Is a worker running?").
WORKER_HEARTBEAT_SECONDS = env.float("WORKER_HEARTBEAT_SECONDS", default=10.0)
WORKER_ALIVE_SECONDS = env.float("WORKER_ALIVE_SECONDS", default=30.0)
CELERY_BEAT_SCHEDULE = {
    "ingestion-sweep": {"task": "ingestion.chunks_sweep", "schedule": INGESTION_SWEEP_SECONDS},
    "search-log-prune": {"task": "search.search_log_prune", "schedule": SEARCH_LOG_PRUNE_SECONDS},
}
