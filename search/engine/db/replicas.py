"""Which database a search statement reads from: a healthy streaming replica, or the primary.

DATABASE_REPLICA_URLS (config/settings/) names zero or more replicas, as the aliases in
settings.DATABASE_REPLICAS. The statement runner (search/engine/db/statements.py) asks
`search_database()` for each search; the answer is the primary when

- no replica is configured, or none is healthy: each replica's replay lag is measured with
  `pg_last_xact_replay_timestamp()` at most every REPLICA_CHECK_SECONDS per process, and one
  lagging past REPLICA_MAX_LAG_SECONDS, or not answering, is skipped until a later check. Lag
  is unknown, hence too large, when the replica has no WAL receiver streaming (cut off from
  its primary); it is 0 only when the replica has replayed up to the primary's position;
- the caller wrote in the last READ_YOUR_WRITES_SECONDS (search/engine/db/read_your_writes.py): an
  editor who saves and then searches sees the save;
- the search runs inside a transaction on the primary: it must see that transaction's rows.

A replica that fails during a statement is marked down at once (`replica_failed`) and the
statement runner repeats the search on the primary, so a replica going away costs no search.
Everything else, ORM reads included, uses the primary (`PrimaryOnlyRouter`).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

from search.engine.db.read_your_writes import caller_wrote_recently

logger = logging.getLogger(__name__)

# Replay lag in seconds, given the primary's WAL position read just before (%(primary)s).
# - No WAL receiver streaming (the standby is cut off from its primary): unknown (NULL), hence
#   too large. Without pg_read_all_stats a role sees only the receiver's pid, not its status.
# - The replica has replayed up to the primary's position: 0, however long ago its last
#   replayed commit was (an idle primary).
# - Behind it: the time since its last replayed commit. "Replayed all it received" is no proof
#   of freshness: a standby that receives nothing has replayed all it received.
# - The primary's position unknown (it did not answer): replayed all it received counts as 0.
LAG_SQL = """
SELECT pg_is_in_recovery(),
       CASE WHEN NOT pg_is_in_recovery() THEN 0
            WHEN NOT EXISTS (SELECT FROM pg_stat_wal_receiver
                             WHERE pid IS NOT NULL AND coalesce(status, 'streaming') = 'streaming') THEN NULL
            WHEN pg_last_wal_replay_lsn() >= %(primary)s::pg_lsn THEN 0
            WHEN %(primary)s::pg_lsn IS NULL
                 AND pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
            ELSE extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())
       END
"""
PRIMARY_POSITION_SQL = "SELECT pg_current_wal_lsn()::text"


@dataclass(frozen=True)
class ReplicaState:
    alias: str
    checked_at: float  # time.monotonic()
    lag_seconds: float | None  # None: did not answer, or its lag is unknown
    error: str | None = None

    @property
    def usable(self) -> bool:
        return self.error is None and self.lag_seconds is not None and self.lag_seconds <= settings.REPLICA_MAX_LAG_SECONDS


_lock = threading.Lock()
_states: dict[str, ReplicaState] = {}


def replica_aliases() -> list[str]:
    return list(settings.DATABASE_REPLICAS)


def search_database() -> str:
    """The alias a search statement should read from now (see the module's docstring)."""
    replicas = replica_aliases()
    if not replicas or connections[DEFAULT_DB_ALIAS].in_atomic_block or caller_wrote_recently():
        return DEFAULT_DB_ALIAS
    usable = [alias for alias in replicas if replica_state(alias).usable]
    return random.choice(usable) if usable else DEFAULT_DB_ALIAS


def replica_state(alias: str, *, fresh: bool = False) -> ReplicaState:
    """The replica's last check, or a new one when that is older than REPLICA_CHECK_SECONDS."""
    with _lock:
        state = _states.get(alias)
    if not fresh and state is not None and time.monotonic() - state.checked_at < _recheck_after(state):
        return state
    state = _replica_check(alias)
    with _lock:
        _states[alias] = state
    return state


# A replica that did not answer is tried again less often: on a host that is gone, a
# connection attempt can take its whole connect_timeout, and one search per check pays it.
DOWN_RECHECK_FACTOR = 5


def _recheck_after(state: ReplicaState) -> float:
    return settings.REPLICA_CHECK_SECONDS * (DOWN_RECHECK_FACTOR if state.error == "unreachable" else 1)


def replica_failed(alias: str, error: str = "unreachable") -> None:
    """A statement on `alias` failed: skip it until the next check, and drop its connection."""
    with _lock:
        _states[alias] = ReplicaState(alias, time.monotonic(), None, error)
    try:
        connections[alias].close()
    except DatabaseError:
        pass


def replica_states_forget() -> None:
    """Forget every check (tests, and after reconfiguring the replicas)."""
    with _lock:
        _states.clear()


def replicas_report() -> list[dict]:
    """Each replica's alias, whether searches use it, and its lag (health details, /metrics)."""
    report = []
    for alias in replica_aliases():
        state = replica_state(alias)
        entry: dict = {"alias": alias, "in_use": state.usable,
                       "lag_seconds": None if state.lag_seconds is None else round(state.lag_seconds, 3)}
        if state.error:
            entry["error"] = state.error
        elif not state.usable:
            entry["error"] = "lagging"
        report.append(entry)
    return report


def _primary_position() -> str | None:
    """The primary's current WAL position, or None when it does not answer."""
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(PRIMARY_POSITION_SQL)
            return cursor.fetchone()[0]
    except DatabaseError:
        logger.warning("The primary did not give its WAL position; replica lag is measured without it.",
                       exc_info=True)
        return None


def _replica_check(alias: str) -> ReplicaState:
    connection = connections[alias]
    primary = _primary_position()  # before the replica's: what it has replayed must reach this
    try:
        if connection.connection is not None and not connection.is_usable():
            connection.close()
        with connection.cursor() as cursor:
            cursor.execute(LAG_SQL, {"primary": primary})
            _in_recovery, lag = cursor.fetchone()
    except DatabaseError:
        # The exception names hosts and users: the log keeps it, the report a short code.
        logger.warning("Replica %s does not answer; searches use the primary.", alias, exc_info=True)
        try:
            connection.close()
        except DatabaseError:
            pass
        return ReplicaState(alias, time.monotonic(), None, "unreachable")
    return ReplicaState(alias, time.monotonic(), None if lag is None else max(0.0, float(lag)))


class PrimaryOnlyRouter:
    """Every ORM read and write, and every migration, goes to the primary. Replicas serve only
    the statements search/engine/db/statements.py routes to them."""

    def db_for_read(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS
