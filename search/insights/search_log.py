"""The search log: every search and every reported click, appended in memory and written in batches.

`SearchKind.search` (search/kinds.py), the one call every interface makes, calls
`search_log_record` after a search answered: it normalises and redacts the query, hashes the
caller, makes the search's id and appends one row to this process's buffer. That is all the
request pays: no query, no lock held longer than a list append. A daemon thread per process
writes the buffer to the primary database (`SearchLog.objects.using(DEFAULT_DB_ALIAS)`, never
a replica) when SEARCH_LOG_BATCH_SIZE rows wait or the oldest has waited
SEARCH_LOG_FLUSH_SECONDS, and the process's exit writes what is left: `atexit` here, plus
gunicorn's `worker_exit` hook (gunicorn.conf.py) and Celery's `worker_process_shutdown`
(search/apps.py) call `search_log_flush()`, which is safe to repeat.

The search id given to callers (`meta.search_id`) is the row's UUID followed by an HMAC of
(workspace id, UUID) under SECRET_KEY: a click report (`search_event_record`) is checked
without reading the log (the row may not be written yet), and an id made for another
workspace fails the check, which answers like a search that does not exist.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import hmac
import logging
import os
import re
import threading
import time
import unicodedata
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, connections, transaction
from django.utils import timezone

from cms.access import WorkspaceAccess
from cms.models import Entry, Workspace
from ingestion.models import Chunk
from search.contract.errors import SearchError, SearchInputError
from search.models import SearchClick, SearchLog

logger = logging.getLogger(__name__)

QUERY_MAX_CHARS = 200
# What is never stored: e-mail addresses (spaces around the @ and the dots included), and any
# run of digits that adds up to 6 or more digits (phone, card, order and account numbers),
# whatever separates them: spaces, dots, dashes, slashes, underscores, commas, in any number.
_EMAIL = re.compile(r"[^\s@]+ ?@ ?[^\s@.]+(?: ?\. ?[^\s@.]+)+")
_DIGIT_RUN = re.compile(r"\d(?:[\s.,/_\-\u2010-\u2015\u2212]*\d){5,}")
EMAIL_MARK = "[email]"
NUMBER_MARK = "[number]"
_SPACES = re.compile(r"\s+")
_SEARCH_ID = re.compile(r"[0-9a-f]{48}")
_MAC_CHARS = 16
# A row waiting in memory: its model and its field values.
PendingRow = tuple[type[SearchLog] | type[SearchClick], dict]
# The cache that remembers each search's results and caller for its clicks (config/settings/).
RESULTS_CACHE = "search_results"


def query_normalise(text: str) -> str:
    """The query as the log keeps it: NFKC (full-width folded), lower case, single spaces,
    e-mail addresses and long digit runs replaced, at most QUERY_MAX_CHARS characters.

    The whole query is redacted before it is cut: a cut first could keep part of a number (a
    search's query is bounded by its options, 2,000 characters at most)."""
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().lower()
    if "@" in text:
        text = _EMAIL.sub(EMAIL_MARK, text)
    text = _DIGIT_RUN.sub(NUMBER_MARK, text)
    return text[:QUERY_MAX_CHARS]


def caller_hash(actor: str) -> str:
    """The caller ("user:alice", "key:cms_ab12", "operator") as an HMAC: distinct, not reversible."""
    return _caller_hash(settings.SECRET_KEY, actor)


@functools.lru_cache(maxsize=4096)
def _caller_hash(secret: str, actor: str) -> str:
    return hmac.new(secret.encode(), f"search-log:{actor}".encode(), hashlib.sha256).hexdigest()[:16]


def _mac(workspace_id: int, row_id: uuid.UUID) -> str:
    message = f"search-id:{workspace_id}:{row_id.hex}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:_MAC_CHARS]


def search_id_make(workspace_id: int, row_id: uuid.UUID) -> str:
    return row_id.hex + _mac(workspace_id, row_id)


class SearchNotFound(SearchError):
    """A well-formed search id that this workspace did not give out: another's, or made up."""

    status = 404

    def __init__(self) -> None:
        super().__init__("search_not_found", "No such search in this workspace.")


def search_id_parse(workspace_id: int, search_id: object) -> uuid.UUID:
    """The log row's UUID behind `search_id`. SearchInputError `search_id_invalid` for a value
    that is no search id at all; SearchNotFound when it was not made for this workspace."""
    if not isinstance(search_id, str) or not _SEARCH_ID.fullmatch(search_id):
        raise SearchInputError("search_id_invalid", "search_id must be the meta.search_id of a search (48 hex digits).")
    row_id = uuid.UUID(hex=search_id[:32])
    if not hmac.compare_digest(search_id[32:], _mac(workspace_id, row_id)):
        raise SearchNotFound()
    return row_id


# --- the buffer -------------------------------------------------------------------------------

class SearchLogBuffer:
    """Rows waiting to be written, shared by a process's threads; written by one daemon thread.

    After a fork (gunicorn workers, Celery's pool) the child starts with an empty buffer and
    no thread: what the parent had appended stays the parent's to write.
    """

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._lock = threading.Lock()
        # (model, field values): instances are made by the writer, not by the request.
        self._rows: list[PendingRow] = []
        self._oldest: float | None = None
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._flush_lock = threading.Lock()
        self.dropped = 0

    def append(self, row: PendingRow) -> None:
        if self._pid != os.getpid():
            self._reset()
        with self._lock:
            self._rows.append(row)
            if self._oldest is None:
                self._oldest = time.monotonic()
            waiting = len(self._rows)
            if waiting > settings.SEARCH_LOG_MAX_BUFFER:
                del self._rows[0]
                self.dropped += 1
        if settings.SEARCH_LOG_FLUSH_SECONDS > 0:
            if self._thread is None:
                self._thread_start()
            if waiting >= settings.SEARCH_LOG_BATCH_SIZE:
                self._wake.set()

    def _thread_start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="search-log-flush", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            interval = settings.SEARCH_LOG_FLUSH_SECONDS or 1.0
            self._wake.wait(interval)
            self._wake.clear()
            with self._lock:
                due = bool(self._rows) and (len(self._rows) >= settings.SEARCH_LOG_BATCH_SIZE
                                            or time.monotonic() - (self._oldest or 0) >= interval)
            if due:
                try:
                    self.flush()
                except Exception:  # never let the writer die: the rows stay for the next round
                    logger.exception("search log: writing a batch failed")
                    time.sleep(interval)
                finally:
                    # A connection per batch (every few seconds at most): none held idle between them.
                    connections[DEFAULT_DB_ALIAS].close()

    def take(self) -> list[PendingRow]:
        with self._lock:
            rows, self._rows, self._oldest = self._rows, [], None
        return rows

    def put_back(self, rows: list[PendingRow]) -> None:
        with self._lock:
            self._rows[:0] = rows
            self._oldest = self._oldest or time.monotonic()

    def pending(self) -> int:
        with self._lock:
            return len(self._rows)

    def flush(self) -> int:
        """Write every waiting row to the primary, in one transaction; the number written. Rows
        of a workspace deleted meanwhile are dropped; a batch the database refuses otherwise (it
        is down) goes back to the buffer for the next round."""
        if self._pid != os.getpid():
            self._reset()
            return 0
        with self._flush_lock:
            rows = self.take()
            if not rows:
                return 0
            try:
                kept = _rows_of_live_workspaces(rows)
                self.dropped += len(rows) - len(kept)
                try:
                    return _rows_write(kept)
                except IntegrityError:  # a workspace deleted since the check above
                    kept = _rows_of_live_workspaces(kept)
                    return _rows_write(kept)
            except DatabaseError:
                self.put_back(rows)
                raise

    def discard(self) -> None:
        self.take()


def _rows_write(rows: list[PendingRow]) -> int:
    logs = [SearchLog(**values) for model, values in rows if model is SearchLog]
    clicks = [SearchClick(**values) for model, values in rows if model is SearchClick]
    with transaction.atomic(using=DEFAULT_DB_ALIAS):
        if logs:
            SearchLog.objects.using(DEFAULT_DB_ALIAS).bulk_create(logs, batch_size=500)
        if clicks:
            SearchClick.objects.using(DEFAULT_DB_ALIAS).bulk_create(clicks, batch_size=500)
    return len(rows)


def _rows_of_live_workspaces(rows: list[PendingRow]) -> list[PendingRow]:
    ids = {values["workspace_id"] for _, values in rows}
    live = set(Workspace.objects.using(DEFAULT_DB_ALIAS).filter(pk__in=ids).values_list("pk", flat=True))
    return [row for row in rows if row[1]["workspace_id"] in live]


BUFFER = SearchLogBuffer()


def search_log_flush() -> int:
    """Write what this process's buffer holds (at exit, from hooks, from tests); never raises."""
    try:
        return BUFFER.flush()
    except Exception:
        logger.exception("search log: the final write failed; %d rows lost", BUFFER.pending())
        return 0


atexit.register(search_log_flush)


# --- what interfaces call ---------------------------------------------------------------------

def search_log_record(*, access: WorkspaceAccess, kind: str, interface: str, query: str, results: int,
                      latency_ms: float, entry_ids: Sequence[int] = (), chunk_ids: Sequence[int] = ()) -> str | None:
    """Append one search to the log; its search id, or None when the workspace logs nothing.
    No database access: the workspace's switch is a field of the workspace the access holds.
    The results it gave (`entry_ids`, `chunk_ids`) and its caller are remembered for
    SEARCH_CLICK_SECONDS in the shared "search_results" cache: a click is accepted only on
    one of them, from the same caller (`search_event_record`)."""
    workspace = access.workspace
    if not workspace.search_log_enabled:
        return None
    row_id = uuid.uuid4()
    caller = caller_hash(access.actor or access.role)
    BUFFER.append((SearchLog, {
        "workspace_id": workspace.pk, "id": row_id, "created_at": timezone.now(), "interface": interface[:16],
        "kind": kind[:16], "query": query_normalise(query), "results": results, "latency_ms": round(latency_ms, 3),
        "caller": caller,
    }))
    caches[RESULTS_CACHE].set(_results_key(workspace.pk, row_id),
                              {"caller": caller, "entries": sorted(set(entry_ids)), "chunks": sorted(set(chunk_ids))},
                              timeout=settings.SEARCH_CLICK_SECONDS)
    return search_id_make(workspace.pk, row_id)


def _results_key(workspace_id: int, row_id: uuid.UUID) -> str:
    return f"search-results:{workspace_id}:{row_id.hex}"


@dataclass(frozen=True)
class SearchEvent:
    """A click as recorded: `recorded` is False when the workspace's logging is off."""

    search_id: str
    recorded: bool


def search_event_record(*, access: WorkspaceAccess, search_id: str, entry_id: int | None, chunk_id: int | None,
                        position: int) -> SearchEvent:
    """Record that the caller opened a result of one of this workspace's searches.

    The search must be the caller's own, made within SEARCH_CLICK_SECONDS (else
    SearchNotFound, as for an id never given out), and the result one it gave: an entry it
    returned (or the entry of a chunk it returned), or a chunk it returned; the caller must
    still see it. Raises SearchInputError (`search_id_invalid`, `entry_id_invalid`,
    `chunk_id_invalid`) or SearchNotFound.
    """
    workspace = access.workspace
    row_id = search_id_parse(workspace.pk, search_id)
    given = caches[RESULTS_CACHE].get(_results_key(workspace.pk, row_id))
    if given is None or not hmac.compare_digest(given["caller"], caller_hash(access.actor or access.role)):
        raise SearchNotFound()
    if entry_id is not None and entry_id not in given["entries"]:
        raise SearchInputError("entry_id_invalid", "entry_id is not a result of this search.")
    if chunk_id is not None and chunk_id not in given["chunks"]:
        raise SearchInputError("chunk_id_invalid", "chunk_id is not a result of this search.")
    if entry_id is not None:
        visible = Entry.objects.filter(workspace=workspace, pk=entry_id, status__in=access.entry_statuses).exists()
        if not visible:
            raise SearchInputError("entry_id_invalid", "entry_id names no entry of this workspace that you may see.")
    if chunk_id is not None:
        chunk = Chunk.objects.filter(workspace=workspace, pk=chunk_id).values("entry_id").first()
        visible = chunk is not None and (
            chunk["entry_id"] is None
            or Entry.objects.filter(pk=chunk["entry_id"], status__in=access.entry_statuses).exists())
        if not visible:
            raise SearchInputError("chunk_id_invalid", "chunk_id names no chunk of this workspace that you may see.")
    if not workspace.search_log_enabled:
        return SearchEvent(search_id=search_id, recorded=False)
    BUFFER.append((SearchClick, {"workspace_id": workspace.pk, "id": uuid.uuid4(), "search_id": row_id,
                                 "created_at": timezone.now(), "entry_id": entry_id, "chunk_id": chunk_id,
                                 "position": position}))
    return SearchEvent(search_id=search_id, recorded=True)


def search_log_prune(*, now: datetime | None = None, days: int | None = None) -> dict[str, int]:
    """Delete searches and clicks older than `days` (SEARCH_LOG_RETENTION_DAYS); the counts deleted.
    Safe to repeat: a second run finds nothing older."""
    days = settings.SEARCH_LOG_RETENTION_DAYS if days is None else days
    cutoff = (now or timezone.now()) - timedelta(days=days)
    deleted = {}
    for name, model in (("searches", SearchLog), ("clicks", SearchClick)):
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(f"DELETE FROM {model._meta.db_table} WHERE created_at < %s", [cutoff])
            deleted[name] = cursor.rowcount
    return deleted


def search_log_set_enabled(*, workspace: Workspace, enabled: bool) -> None:
    """Turn a workspace's search log on or off (an operator's switch)."""
    Workspace.objects.filter(pk=workspace.pk).update(search_log_enabled=enabled)
    workspace.search_log_enabled = enabled

