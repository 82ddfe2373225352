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
"""

from __future__ import annotations

import logging
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

from search.contract.errors import SearchTimeout
from search.engine.db.replicas import replica_failed, search_database

logger = logging.getLogger(__name__)

# Custom settings (two-part names) that hold the values a message found, to restore them.
_SAVED_PREFIX = "search.saved_"


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

    @property
    def alias(self) -> str | None:
        """The database the search's statements ran on (None before the first)."""
        return self._alias

    def execute(self, sql: str, params: Sequence[Any] = (), *, local_settings: Mapping[str, str] | None = None) -> None:
        """Run `sql` and leave the cursor on its result (fetchone/fetchall/description)."""
        timeout_ms = search_statement_timeout_ms()
        wanted = {**({"statement_timeout": str(timeout_ms)} if timeout_ms else {}), **(local_settings or {})}
        if wanted:
            # A setting of an extension not loaded yet in this session (pg_trgm's threshold before
            # its first use) has no value: it is saved as '' and put back as NULL, which is a reset.
            save = ", ".join(
                f"set_config('{_SAVED_PREFIX}{name}', coalesce(current_setting('{name}', true), ''), true),"
                f" set_config('{name}', %s, true)"
                for name in wanted
            )
            restore = ", ".join(
                f"set_config('{name}', nullif(current_setting('{_SAVED_PREFIX}{name}'), ''), true)" for name in wanted
            )
            sql, params = f"SELECT {save}; {sql}; SELECT {restore}", [*wanted.values(), *params]
        self._run(sql, params, skip_first_result=bool(wanted))

    def _run(self, sql: str, params: Sequence[Any], *, skip_first_result: bool) -> None:
        if self._cursor is None:
            self._open(search_database())
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
