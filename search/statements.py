"""Every search statement runs through here: under a time limit, with its settings restored after.

A statement is sent in one message with the statements that set its transaction-local
settings (`set_config(..., true)`, which is `SET LOCAL` with parameters) before it and put
them back after it, so the limit costs no round trip:

    SELECT set_config('search.saved_statement_timeout', current_setting('statement_timeout'), true),
           set_config('statement_timeout', '3000', true), ...;
    <the search statement>;
    SELECT set_config('statement_timeout', current_setting('search.saved_statement_timeout'), true), ...

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

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection, transaction
from psycopg import errors as pg_errors

from search.errors import SearchTimeout

# Custom settings (two-part names) that hold the values a message found, to restore them.
_SAVED_PREFIX = "search.saved_"


def search_statement_timeout_ms() -> int:
    """The search statement time limit in milliseconds (SEARCH_STATEMENT_TIMEOUT_MS); 0 sets
    none, leaving the server's or the caller's statement_timeout in force."""
    return int(settings.SEARCH_STATEMENT_TIMEOUT_MS)


class SearchCursor:
    """A database cursor whose `execute` runs one search statement under the time limit,
    with `local_settings` (trusted names, values bound as parameters) in force for it alone."""

    def __init__(self, cursor: Any):
        self._cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = (), *, local_settings: Mapping[str, str] | None = None) -> None:
        """Run `sql` and leave the cursor on its result (fetchone/fetchall/description)."""
        timeout_ms = search_statement_timeout_ms()
        wanted = {**({"statement_timeout": str(timeout_ms)} if timeout_ms else {}), **(local_settings or {})}
        if not wanted:
            self._cursor.execute(sql, params)
            return
        save = ", ".join(
            f"set_config('{_SAVED_PREFIX}{name}', current_setting('{name}'), true), set_config('{name}', %s, true)"
            for name in wanted
        )
        restore = ", ".join(
            f"set_config('{name}', current_setting('{_SAVED_PREFIX}{name}'), true)" for name in wanted
        )
        self._cursor.execute(f"SELECT {save}; {sql}; SELECT {restore}", [*wanted.values(), *params])
        self._cursor.nextset()

    def fetchone(self) -> tuple | None:
        return self._cursor.fetchone()

    def fetchall(self) -> list[tuple]:
        return self._cursor.fetchall()

    @property
    def description(self) -> Any:
        return self._cursor.description


@contextmanager
def search_cursor(*, atomic: bool = False) -> Iterator[SearchCursor]:
    """A SearchCursor; a statement cancelled by the time limit raises SearchTimeout.

    `atomic=True` runs the statements in one transaction, for searches whose statements
    share transaction-local settings. Otherwise each statement is its own transaction in
    autocommit; inside a caller's transaction a savepoint is taken either way, so that a
    cancelled statement leaves the caller's transaction usable.
    """
    block = transaction.atomic() if atomic or connection.in_atomic_block else nullcontext()
    try:
        with block, connection.cursor() as cursor:
            yield SearchCursor(cursor)
    except OperationalError as exc:
        if isinstance(exc.__cause__, pg_errors.QueryCanceled):
            raise SearchTimeout(timeout_ms=search_statement_timeout_ms() or None) from exc
        raise
