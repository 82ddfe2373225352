"""Every search statement runs through here: under a time limit, with its settings restored after.

A statement is sent in one message with the statements that set its transaction-local
settings (`set_config(..., true)`, which is `SET LOCAL` with parameters) before it and put
them back after it, so the limit costs no round trip:

    SELECT set_config('search.saved_statement_timeout', coalesce(current_setting('statement_timeout', true), ''), true),
           set_config('statement_timeout', '3000', true), ...;
    <the search statement>;
    SELECT set_config('statement_timeout', nullif(current_setting('search.saved_statement_timeout'), ''), true), ...

PostgreSQL times each statement of a message separately, with the timeout in force when it
starts. In autocommit the message is its own transaction, so nothing outlives it; inside a
caller's transaction the last statement puts the caller's values back. A statement the
timeout cancels (`QueryCanceled`) becomes SearchTimeout (HTTP 503, `search_timeout`) once
its transaction, or the savepoint taken inside a caller's transaction, has rolled back: the
connection is ready for the next statement.

This needs Django's default client-side parameter binding with psycopg 3, which allows
several statements in one execute.

On a Citus coordinator `set_config` changes the coordinator's session only, and a statement
routed to a worker's shard runs there under the worker's defaults (the HNSW walk stopped at
the default ef_search=40 without its iterative scan, and the vector leg fell back to ranking
every vector: docs/design/hybrid.md, "Citus against one node"). Citus sends `SET LOCAL`
*statements* on to the workers when `citus.propagate_set_commands` is 'local', but it sends
the whole text of the message the SET came in, which here holds the search statement too. So
there the settings are `SET LOCAL` statements inside a DO block (plpgsql runs each as a
statement of its own, and Citus forwards just that text), with the propagation switched on in
the same block, for the search's transaction only rather than by `ALTER DATABASE ... SET`:
no step for an operator to forget on a new or restored database, no wait for the persistent
connections opened before it, and no change to the SET LOCALs of code other than searches:

    DO $search$BEGIN SET LOCAL citus.propagate_set_commands = 'local';
      PERFORM set_config('search.saved_work_mem', ...); SET LOCAL work_mem = '32MB'; ...
    END$search$;
    <the search statement>;
    DO $search$BEGIN EXECUTE 'SET LOCAL work_mem = ' || ...; END$search$

The values are written into the block (a DO block takes no parameters), so names come from
SETTING_NAMES and values must look like SETTING_VALUE. Propagated settings make Citus open a
transaction block on the worker (BEGIN with the SETs, then COMMIT), round trips a statement
without them does not pay: so the statement timeout, which the coordinator enforces for the
workers too, stays a set_config on the coordinator (COORDINATOR_ONLY), a statement with no other
setting is sent as on one node, and a statement that is its own transaction skips the
restoring block.
Pinned by tests/citus/test_settings.py.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    InterfaceError,
    OperationalError,
    connections,
    transaction,
)
from psycopg import errors as pg_errors

from cms.citus_mode import citus_active
from search.contract.errors import SearchTimeout
from search.engine.db.replicas import replica_failed, search_database

logger = logging.getLogger(__name__)

# Custom settings (two-part names) that hold the values a message found, to restore them.
_SAVED_PREFIX = "search.saved_"

# Every setting a search sets: the names are written into the SQL.
SETTING_NAMES = frozenset({
    "statement_timeout", "max_parallel_workers_per_gather", "work_mem",
    "enable_indexscan", "enable_seqscan", "enable_sort", "random_page_cost",
    "hnsw.ef_search", "hnsw.iterative_scan", "hnsw.max_scan_tuples", "hnsw.scan_mem_multiplier",
    "pg_trgm.similarity_threshold",
})
# What a value may be, where it is written into the SQL (Citus's SET LOCAL): numbers, units, words.
SETTING_VALUE = re.compile(r"[A-Za-z0-9_.\-]+\Z")
_DO = "$search$"
# Settings the coordinator alone needs on Citus: it cancels the workers' part of a statement it
# cancels. Sending them on would open a transaction block on the worker for every statement.
COORDINATOR_ONLY = frozenset({"statement_timeout"})


def settings_checked(settings: Mapping[str, str]) -> Mapping[str, str]:
    for name, value in settings.items():
        if name not in SETTING_NAMES:
            raise ValueError(f"{name!r} is not a search setting (search.engine.db.statements.SETTING_NAMES)")
        if not SETTING_VALUE.match(value):
            raise ValueError(f"{value!r} is not a value a search setting may take ({name})")
    return settings


def _set_local(name: str, value: str) -> str:
    return f"SET LOCAL {name} = '{value}';"


def search_statement_timeout_ms() -> int:
    """The search statement time limit in milliseconds (SEARCH_STATEMENT_TIMEOUT_MS); 0 sets
    none, leaving the server's or the caller's statement_timeout in force."""
    return int(settings.SEARCH_STATEMENT_TIMEOUT_MS)


class SearchCursor:
    """A database cursor whose `execute` runs one search statement under the time limit,
    with `local_settings` (trusted names, values bound as parameters) in force for it alone.

    It reads from the database search/engine/db/replicas.py chooses. When a replica fails under a
    statement (it went away, or cancelled the statement for a conflict with its replay), the
    replica is skipped from then on and the search's statements so far are repeated on the
    primary, in a transaction of their own when the search asked for one: the caller sees
    no error.
    """

    def __init__(self, *, atomic: bool):
        self._atomic = atomic
        self._alias: str | None = None
        self._stack: ExitStack | None = None
        self._cursor: Any = None
        self._history: list[tuple[str, Sequence[Any], bool]] = []
        self._in_transaction = False
        self._citus = False

    @property
    def alias(self) -> str | None:
        """The database the search's statements ran on (None before the first)."""
        return self._alias

    def execute(self, sql: str, params: Sequence[Any] = (), *, local_settings: Mapping[str, str] | None = None,
                transaction_settings: Mapping[str, str] | None = None) -> None:
        """Run `sql` and leave the cursor on its result (fetchone/fetchall/description).

        `local_settings` hold for `sql` alone; `transaction_settings` are set before it, in the
        same message, and stay for the rest of the transaction (the vector leg's HNSW settings)."""
        timeout_ms = search_statement_timeout_ms()
        wanted = settings_checked({**({"statement_timeout": str(timeout_ms)} if timeout_ms else {}),
                                   **(local_settings or {})})
        kept = settings_checked(transaction_settings or {})
        if self._cursor is None:
            self._open(search_database())
        if not (wanted or kept):
            self._run(sql, params, skip_first_result=False)
        elif self._citus and (wanted.keys() | kept.keys()) - COORDINATOR_ONLY:
            self._run(*self._citus_message(sql, params, wanted, kept), skip_first_result=True)
        else:
            # A setting of an extension not loaded yet in this session (pg_trgm's threshold before
            # its first use) has no value: it is saved as '' and put back as NULL, which is a reset.
            save = [f"set_config('{_SAVED_PREFIX}{name}', coalesce(current_setting('{name}', true), ''), true),"
                    f" set_config('{name}', %s, true)" for name in wanted]
            save += [f"set_config('{name}', %s, true)" for name in kept]
            message = f"SELECT {', '.join(save)}; {sql}"
            if wanted:
                restore = ", ".join(
                    f"set_config('{name}', nullif(current_setting('{_SAVED_PREFIX}{name}'), ''), true)"
                    for name in wanted)
                message = f"{message}; SELECT {restore}"
            self._run(message, [*wanted.values(), *kept.values(), *params], skip_first_result=True)

    def settings_set(self, settings: Mapping[str, str]) -> None:
        """Set `settings` for the rest of the search's transaction, in a statement of their own."""
        settings = settings_checked(settings)
        if self._cursor is None:
            self._open(search_database())
        if self._citus:
            self.execute(f"DO {_DO}BEGIN SET LOCAL citus.propagate_set_commands = 'local';"
                         f" {' '.join(_set_local(n, v) for n, v in settings.items())} END{_DO}")
        else:
            self.execute("SELECT " + ", ".join(f"set_config('{name}', %s, true)" for name in settings),
                         list(settings.values()))

    def _citus_message(self, sql: str, params: Sequence[Any], wanted: Mapping[str, str],
                       kept: Mapping[str, str]) -> tuple[str, Sequence[Any]]:
        """The message on Citus: the settings as SET LOCAL statements that Citus sends on to the
        workers (the module's docstring says why a DO block)."""
        def set_(name: str, value: str) -> str:
            if name in COORDINATOR_ONLY:
                return f"PERFORM set_config('{name}', '{value}', true);"
            return _set_local(name, value)

        def put_back(name: str) -> str:
            saved = f"nullif(current_setting('{_SAVED_PREFIX}{name}'), '')"
            if name in COORDINATOR_ONLY:
                return f"PERFORM set_config('{name}', {saved}, true);"
            return f"EXECUTE 'SET LOCAL {name} = ' || coalesce(quote_literal({saved}), 'DEFAULT');"

        save = " ".join(
            f"PERFORM set_config('{_SAVED_PREFIX}{name}', coalesce(current_setting('{name}', true), ''), true);"
            f" {set_(name, value)}" for name, value in wanted.items())
        keep = " ".join(set_(name, value) for name, value in kept.items())
        message = f"DO {_DO}BEGIN SET LOCAL citus.propagate_set_commands = 'local'; {save} {keep} END{_DO}; {sql}"
        if wanted and self._in_transaction:
            message = f"{message}; DO {_DO}BEGIN {' '.join(put_back(name) for name in wanted)} END{_DO}"
        return message, params

    def _run(self, sql: str, params: Sequence[Any], *, skip_first_result: bool) -> None:
        try:
            self._cursor.execute(sql, params)
        except (OperationalError, InterfaceError) as exc:
            if self._alias == DEFAULT_DB_ALIAS or isinstance(exc.__cause__, pg_errors.QueryCanceled):
                raise
            self._fail_over(exc)
            self._cursor.execute(sql, params)
        if skip_first_result:
            self._cursor.nextset()
        if self._atomic:
            self._history.append((sql, params, skip_first_result))

    def _open(self, alias: str) -> None:
        stack = ExitStack()
        try:
            connection = connections[alias]
            if self._atomic or connection.in_atomic_block:
                stack.enter_context(transaction.atomic(using=alias))
            self._cursor = stack.enter_context(connection.cursor())
        except (OperationalError, InterfaceError) as exc:
            stack.close()
            if alias == DEFAULT_DB_ALIAS:
                raise
            replica_failed(alias)
            logger.warning("Replica %s refused a search; the primary serves it.", alias, exc_info=exc)
            self._open(DEFAULT_DB_ALIAS)
            return
        self._alias, self._stack = alias, stack
        self._in_transaction = self._atomic or connection.in_atomic_block
        self._citus = citus_active(connection)

    def _fail_over(self, exc: BaseException) -> None:
        failed = self._alias
        logger.warning("Replica %s failed under a search; the primary repeats it.", failed, exc_info=exc)
        self._close(exc)
        replica_failed(failed)
        self._open(DEFAULT_DB_ALIAS)
        for sql, params, skip_first_result in self._history:
            self._cursor.execute(sql, params)
            if skip_first_result:
                self._cursor.nextset()
        # Repeated statements are part of the new transaction's history already.

    def _close(self, exc: BaseException | None = None) -> None:
        stack, self._stack, self._cursor = self._stack, None, None
        if stack is None:
            return
        if exc is None:
            stack.close()
            return
        try:
            stack.__exit__(type(exc), exc, exc.__traceback__)
        except Exception:
            logger.debug("Rolling back after %r failed too.", exc, exc_info=True)

    def fetchone(self) -> tuple | None:
        return self._cursor.fetchone()

    def fetchall(self) -> list[tuple]:
        return self._cursor.fetchall()

    def fetchall_dicts(self) -> list[dict[str, Any]]:
        """The remaining rows of the last statement, each a dict by column name."""
        columns = [col.name for col in self._cursor.description]
        return [dict(zip(columns, row)) for row in self._cursor.fetchall()]

    @property
    def description(self) -> Any:
        return self._cursor.description


@contextmanager
def search_cursor(*, atomic: bool = False) -> Iterator[SearchCursor]:
    """A SearchCursor; a statement cancelled by the time limit raises SearchTimeout.

    `atomic=True` runs the statements in one transaction, for searches whose statements
    share transaction-local settings. Otherwise each statement is its own transaction in
    autocommit; inside a caller's transaction a savepoint is taken either way, so that a
    cancelled statement leaves the caller's transaction usable (and the search reads the
    primary, which holds that transaction).
    """
    cursor = SearchCursor(atomic=atomic)
    try:
        try:
            yield cursor
        except BaseException as exc:
            cursor._close(exc)
            raise
        else:
            cursor._close()
    except OperationalError as exc:
        if isinstance(exc.__cause__, pg_errors.QueryCanceled):
            raise SearchTimeout(timeout_ms=search_statement_timeout_ms() or None) from exc
        raise
