"""The worker's heartbeat: while a Celery worker consumes its queues, it writes that it is alive.

A step of the worker's consumer (config/celery.py adds it), so it starts once the worker
consumes and stops when it stops consuming: at a warm shutdown, and while its broker connection
is lost (Celery stops a consumer's steps before it reconnects, and starts them again after).
A thread in the worker's main process writes the row every WORKER_HEARTBEAT_SECONDS, so a
long task does not delay it (the tests' workers run the solo pool, where tasks run on the main
thread); at stop it marks the row stopped. A killed worker writes nothing: its row ages past
WORKER_ALIVE_SECONDS.

Why a heartbeat and not Celery's inspection (`app.control.inspect().ping()`): a ping is a
broadcast every worker answers, so each health poll would wait out its timeout on the broker
(and with the filesystem transport, `make run`'s, it reads the replies from files); a poll
every second from several monitors would keep every worker answering pings. Reading the rows
is one indexed query in the database the health check already asks, and it also says which
queues each worker consumes and when a stopped one was last seen (docs/operators.md).
"""

from __future__ import annotations

import logging
import os
import threading

from celery import bootsteps

logger = logging.getLogger(__name__)


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Consumer step: beat from a thread while the worker consumes."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent, **kwargs):
        super().__init__(parent, **kwargs)
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self, c) -> None:
        from django.conf import settings
        from django.utils import timezone

        queues = sorted(queue.name for queue in getattr(c.task_consumer, "queues", None) or [])
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=_beat, name="worker-heartbeat", daemon=True,
            args=(self._stopping, c.hostname, queues, os.getpid(), timezone.now(),
                  float(settings.WORKER_HEARTBEAT_SECONDS)),
        )
        self._thread.start()

    def stop(self, c) -> None:
        if self._thread is None:
            return
        self._stopping.set()
        self._thread.join(timeout=10)
        self._thread = None

    shutdown = stop


def _beat(stopping: threading.Event, name: str, queues: list[str], pid: int, started_at, every: float) -> None:
    from django.db import DatabaseError, close_old_connections, connection

    from ingestion.services.heartbeat import worker_heartbeat_record, worker_heartbeat_stop, worker_heartbeats_prune

    try:
        worker_heartbeats_prune()
    except DatabaseError:
        logger.warning("Worker heartbeat: pruning old rows failed.", exc_info=True)
    try:
        while True:
            close_old_connections()
            try:
                worker_heartbeat_record(name=name, queues=queues, pid=pid, started_at=started_at)
            except DatabaseError:  # the database is down: health says so already; beat again later
                logger.warning("Worker heartbeat: the database did not take it.", exc_info=True)
                connection.close()
            if stopping.wait(every):
                break
        try:
            worker_heartbeat_stop(name=name, pid=pid)
        except DatabaseError:
            logger.warning("Worker heartbeat: marking the worker stopped failed.", exc_info=True)
    finally:
        connection.close()  # this thread's own connection
