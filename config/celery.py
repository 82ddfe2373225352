"""The Celery application; configuration comes from Django settings (CELERY_*)."""

import os
from pathlib import Path

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cms")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Each worker writes that it is alive while it consumes (ingestion/heartbeat.py): health, /metrics,
# ingestion_status and the admin read it.
app.steps["consumer"].add("ingestion.heartbeat:WorkerHeartbeat")


@app.on_after_configure.connect
def task_queues_configure(sender: Celery, **kwargs) -> None:
    """A worker without -Q consumes the default queue and every named ingestion queue."""
    from kombu import Exchange, Queue

    from ingestion.queues import queue_names

    # Each on its own exchange and routing key, as Celery declares a queue a route names.
    sender.conf.task_queues = [Queue(name, Exchange(name), routing_key=name)
                               for name in queue_names(sender.conf.task_default_queue)]


def filesystem_broker_folders_ensure() -> None:
    """The filesystem transport (the local default broker) needs its folders to exist."""
    from django.conf import settings

    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if options.get(key):
            Path(options[key]).mkdir(parents=True, exist_ok=True)


filesystem_broker_folders_ensure()
