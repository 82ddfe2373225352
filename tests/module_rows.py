"""Rows built once for a module's tests, in a transaction that is rolled back after its last test."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

from django.db import transaction

T = TypeVar("T")


def rows_for_the_module(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """Run `build` in a transaction held open around the module's tests, and roll it back after.

    Each test's own transaction (pytest-django's, a savepoint inside this one) rolls back what the
    test adds, as Django's setUpTestData does. Use from a `scope="module"` fixture:
    `yield from rows_for_the_module(django_db_blocker, build)`. The module's tests must not be
    transaction=True: their flush would empty the shared rows. Between the tests the database stays
    blocked, so a test without the django_db mark still cannot touch it.
    """
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = build()
        except BaseException:
            atomic.__exit__(*sys.exc_info())
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
