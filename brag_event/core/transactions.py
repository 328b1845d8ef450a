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

**Deadlocks and serialization failures.** Every service takes its row locks in the domain's
one order (``docs/domain.md``, "Concurrency"), so two services do not deadlock. If PostgreSQL
still gives up on a transaction (a deadlock it detected, or a ``REPEATABLE READ`` snapshot that
another transaction overtook), the outermost service runs again from the start, up to
``RETRIES`` more times; after that — or inside a caller's transaction, which only the caller
can run again — it raises ``Busy``: a ``ServiceError`` that pages show as a message and the API
answers with ``503`` and ``Retry-After``. A raw ``OperationalError`` never leaves a service for
these two causes."""

from __future__ import annotations

import functools
import logging
import random
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection, transaction

from .errors import Busy

log = logging.getLogger("brag_event.db")

P = ParamSpec("P")
R = TypeVar("R")

RETRIES = 3  # runs after the first, for a transaction PostgreSQL gave up on

# SQLSTATEs of a transaction that PostgreSQL rolled back and that can simply run again.
_TRANSIENT = {"40P01", "40001"}  # deadlock_detected, serialization_failure

_owned: ContextVar[bool] = ContextVar("brag_owned_transaction", default=False)


def transient(err: BaseException) -> bool:
    """Whether ``err`` means: the transaction lost a race and was rolled back; run it again."""
    if isinstance(err, Busy):
        return True
    if isinstance(err, OperationalError):
        return getattr(err.__cause__, "sqlstate", None) in _TRANSIENT
    return False


def _why(err: BaseException) -> str:
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def backoff(attempt: int) -> None:
    """A short, random pause before running a transaction again, longer each time, so that the
    two sides of a deadlock do not meet again at the same instant."""
    time.sleep(random.uniform(0.005, 0.03) * attempt)  # nosec B311 - jitter, not a secret


def retrying(func: Callable[[], R]) -> R:
    """Run ``func`` (which opens its own transaction) again while PostgreSQL gives up on it,
    up to ``RETRIES`` more times, then raise ``Busy``. For transactions that are not a
    service's (a step of the day close)."""
    for attempt in range(RETRIES + 1):
        try:
            return func()
        except (OperationalError, Busy) as err:
            if not transient(err):
                raise
            if connection.in_atomic_block or attempt == RETRIES:
                raise Busy() from err
            log.warning("%s; running it again (%d)", _why(err), attempt + 1)
            backoff(attempt + 1)
    raise AssertionError("unreachable")  # pragma: no cover


@contextmanager
def owned_transaction() -> Iterator[None]:
    """The outermost transaction of a request whose owner rolls all of it back on an error."""
    token = _owned.set(True)
    try:
        with transaction.atomic(durable=True):
            yield
    finally:
        _owned.reset(token)


def service_transaction(func: Callable[P, R]) -> Callable[P, R]:
    """Run a service in one transaction (see the module's docstring for savepoints and for
    running again after a deadlock)."""

    @functools.wraps(func)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        outermost = not connection.in_atomic_block
        attempt = 0
        while True:
            try:
                with transaction.atomic(savepoint=not _owned.get()):
                    return func(*args, **kwargs)
            except (OperationalError, Busy) as err:
                if not transient(err):
                    raise
                if not outermost or attempt == RETRIES:
                    raise Busy() from err
                attempt += 1
                log.warning("%s: %s; running it again (%d)", func.__name__, _why(err), attempt)
                backoff(attempt)

    return inner


@contextmanager
def consistent_snapshot() -> Iterator[None]:
    """A transaction whose every query sees the database as it was at one moment: on
    PostgreSQL ``REPEATABLE READ`` (writes that others commit meanwhile stay invisible; a row
    changed by another transaction after the snapshot cannot be written here: a serialization
    failure, which ``retrying`` runs again). Inside a caller's transaction (a test's) the
    isolation level can no longer be set, and the caller's transaction is used as it is."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


@contextmanager
def advisory_lock(name: str, key: int) -> Iterator[None]:
    """Hold a PostgreSQL session advisory lock on (``name``, ``key``) for the block, waiting for
    it if another session holds it; released at the end, or by PostgreSQL when the session's
    connection dies (a killed worker). For work that spans several transactions and must not
    run twice at once (a day close and its redelivered task). Elsewhere (SQLite, which lets one
    writer in at a time) nothing is locked."""
    if connection.vendor != "postgresql":
        yield
        return
    space = zlib.crc32(name.encode()) & 0x7FFFFFFF
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [space, key & 0x7FFFFFFF])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [space, key & 0x7FFFFFFF])


def advisory_lock_held(name: str, key: int) -> bool:
    """Whether another session holds the advisory lock on (``name``, ``key``) now (a run under
    way). Elsewhere than PostgreSQL: never."""
    if connection.vendor != "postgresql":
        return False
    space = zlib.crc32(name.encode()) & 0x7FFFFFFF
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [space, key & 0x7FFFFFFF])
        (got,) = cursor.fetchone()
        if got:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [space, key & 0x7FFFFFFF])
    return not got
