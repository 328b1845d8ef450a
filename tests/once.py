"""Something built once for a module of database tests, and rolled back at the module's end.

pytest-django has no module-scoped database fixture; this is the usual recipe:
``django_db_blocker.unblock()`` around an outer atomic block. Each test's own transaction
(pytest-django's ``db``) is a savepoint inside it, rolled back after the test, so every test
starts from exactly the built state, as if it had been built for it alone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from django.db import transaction
from django.test import override_settings

from tests.conftest import FAST_HASHERS

T = TypeVar("T")


def built_once(django_db_blocker: Any, build: Callable[[], T]) -> Iterator[T]:
    """``build()`` inside an outer transaction, with fast password hashing as every test has
    (``tests/conftest.py``); yields what it returns, with the database blocked again between
    tests (a test without the database mark still gets an error). A module-scoped fixture
    does ``yield from built_once(django_db_blocker, ...)``."""
    outer = transaction.atomic()
    with django_db_blocker.unblock():
        outer.__enter__()
    try:
        with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
            built = build()
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
