"""Transactions of services.

Every service runs in one transaction (``@service_transaction``). Called on its own, that is
an ordinary ``transaction.atomic`` block: inside a caller's transaction it becomes a savepoint,
so a caller (a test, the admin, a management command) can catch a service's error and carry on.

An API write instead runs inside ``owned_transaction()``: its owner rolls the *whole*
transaction back on any error — nothing of a refused request is kept — so the services inside
need no savepoints of their own. That saves two round trips (SAVEPOINT, RELEASE) on every
tablet action. The rule inside an owned transaction: an exception from a service must leave
the block (the owner turns it into the error answer after the rollback), never be caught and
followed by more queries.

An owned transaction also holds back the writes handed to ``core.sql.at_commit`` and sends
them with its COMMIT, in one round trip (a tablet action's own writes and its idempotency
record)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from django.db import transaction

from . import sql

P = ParamSpec("P")
R = TypeVar("R")

_owned: ContextVar[bool] = ContextVar("brag_owned_transaction", default=False)


@contextmanager
def owned_transaction() -> Iterator[None]:
    """The outermost transaction of a request whose owner rolls all of it back on an error."""
    token = _owned.set(True)
    try:
        with sql.writes_at_commit() as flush, transaction.atomic(durable=True):
            yield
            flush()
    finally:
        _owned.reset(token)


def service_transaction(func: Callable[P, R]) -> Callable[P, R]:
    """Run a service in one transaction (see the module's docstring for savepoints)."""

    @functools.wraps(func)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        with transaction.atomic(savepoint=not _owned.get()):
            return func(*args, **kwargs)

    return inner
