"""Hand-written SQL for the hot path (entering an action), and the little it needs.

Why: on this project's hardware the ORM spends 0.3–1.4 ms of CPU *compiling* each query (a
select_related join with an access sub-query costs more than PostgreSQL takes to run it), and a
tablet's action needs about eight statements. ``make bench-api`` showed the ORM alone capping
the API far below its target, so the statements of ``hand_apply_action`` are written out here
once, as plain portable SQL (PostgreSQL and SQLite), and hydrated into ordinary model instances.
Everything else keeps the ORM.

Column lists come from the models' ``_meta`` so they follow migrations (one database engine per
process, so the quoted texts are built once); values read go through
the same converters the ORM applies (JSON, SQLite dates), so an instance built here is
indistinguishable from one the ORM loaded."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC
from functools import cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections
from django.db.models import Field, JSONField, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


@cache
def qn(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[Model]) -> str:
    return qn(model._meta.db_table)


@cache
def _fields(model: type[Model]) -> tuple[Field[Any, Any], ...]:
    return tuple(model._meta.concrete_fields)


@cache
def columns(model: type[Model], alias: str) -> str:
    """``alias."col", …`` for every concrete field, in ``_meta`` order."""
    return ", ".join(f"{alias}.{qn(f.column)}" for f in _fields(model))


@cache
def _converters(
    model: type[Model], vendor: str
) -> tuple[tuple[int, Any, tuple[Converter, ...]], ...]:
    """(position, column, converters) of the fields whose database values need converting."""
    out = []
    for i, f in enumerate(_fields(model)):
        col = f.get_col(model._meta.db_table)
        convs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if convs:
            out.append((i, col, tuple(convs)))
    return tuple(out)


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in _fields(model))


def hydrate(model: type[M], row: Sequence[Any], start: int = 0) -> tuple[M, int]:
    """An instance of ``model`` from ``row[start:]`` (as selected by ``columns``), and where the
    next model's columns begin. Built as ``Model.from_db`` builds it — every concrete field set,
    not ``adding``, from this database — without running ``__init__`` field by field, unless
    something listens to the model's init signals."""
    db = connections[DEFAULT_DB_ALIAS]
    fields = _fields(model)
    end = start + len(fields)
    values = list(row[start:end])
    for i, col, convs in _converters(model, db.vendor):
        for conv in convs:
            values[i] = conv(values[i], col, db)
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(db.alias, list(_attnames(model)), values), end
    instance = model.__new__(model)
    instance.__dict__.update(zip(_attnames(model), values, strict=True))
    state = instance._state = ModelState()
    state.adding = False
    state.db = db.alias
    return instance, end


Statement = tuple[str, list[Any]]

MAX_ID = 2**63 - 1


def possible_id(pk: int) -> bool:
    """Whether ``pk`` can be a row id at all (an id from a URL can be any number of digits; the
    ORM answers "no such row" for those, so hand-written look-ups must too)."""
    return 0 < pk <= MAX_ID


def _returns_rows(query: str) -> bool:
    return query.startswith("SELECT") or " RETURNING " in query


def _cursor(reads: bool = False) -> Any:
    """A cursor for hand-written statements: the driver's own (Django's wrapper costs tens of
    microseconds per statement on the hot path), unless something watches the queries — a
    test's ``CaptureQueriesContext``, ``DEBUG``, an ``execute_wrapper`` — which then gets
    Django's wrapper and sees every statement as usual. A cursor that ``reads`` rows loads
    ``timestamptz`` with the driver's own loader where that gives the same values (below)."""
    if connection.queries_logged or connection.execute_wrappers:
        return connection.cursor()
    cursor = connection.create_cursor()
    if reads and _driver_timestamptz_is_djangos():
        oid, loader = _driver_timestamptz_loader()
        cursor.adapters.register_loader(oid, loader)
    return cursor


@cache
def _driver_timestamptz_loader() -> tuple[int, Any]:
    """(oid, psycopg's default text loader of ``timestamptz``): its C implementation when
    psycopg has one."""
    import psycopg
    from psycopg.pq import Format

    oid = psycopg.adapters.types["timestamptz"].oid
    return oid, psycopg.adapters.get_loader(oid, Format.TEXT)


def _driver_timestamptz_is_djangos() -> bool:
    """Whether psycopg's own ``timestamptz`` loader gives exactly what Django's gives here.

    Django loads every ``timestamptz`` through a Python subclass of psycopg's Python loader
    (``BaseTzLoader``) that replaces the zone with the connection's — about 3 µs a value,
    against 0.3 µs for psycopg's C loader, and a tablet's request reads a dozen. Both give the
    instant in the session's ``TimeZone``, and for ``UTC`` psycopg's zone is
    ``datetime.timezone.utc``, which is Django's too when it keeps times in UTC (``USE_TZ``,
    no ``TIME_ZONE`` on the database): then the values are identical (a test compares the
    hand-written path's instances with the ORM's, field by field)."""
    return (
        connection.vendor == "postgresql"
        and connection.timezone is UTC
        and connection.connection.info.parameter_status("TimeZone") == "UTC"
    )


def _pipelined() -> bool:
    return connection.vendor == "postgresql" and hasattr(connection.connection, "pipeline")


def run_batch(statements: Sequence[Statement]) -> list[list[Any] | None]:
    """Run statements in order, in the current transaction, and return each one's rows
    (``None`` for statements that return none: neither a SELECT nor ``… RETURNING``). On
    PostgreSQL they go out together in psycopg's pipeline mode — with the transaction's BEGIN
    if it is the first — in one network round trip instead of one each; a failing statement
    aborts the rest and raises the usual Django ``DatabaseError`` (e.g. ``IntegrityError``).
    Elsewhere they simply run one by one."""
    connection.ensure_connection()
    with connection.wrap_database_errors:
        return _run(statements, commit=False)


def _run(statements: Sequence[Statement], *, commit: bool) -> list[list[Any] | None]:
    """``run_batch``'s work (inside ``wrap_database_errors``); with ``commit``, the
    transaction's COMMIT goes out in the same pipeline, after the statements."""
    raw: Any = connection.connection
    pipelined = _pipelined() and len(statements) + commit > 1
    readers: list[Any] = []
    writer = None
    try:
        with raw.pipeline() if pipelined else nullcontext():
            for query, params in statements:
                if _returns_rows(query):
                    cursor = _cursor(reads=True)
                    readers.append(cursor)
                else:  # statements without rows share one cursor
                    cursor = writer = writer or _cursor()
                    readers.append(None)
                cursor.execute(query, params)
            if commit:
                writer = writer or _cursor()
                writer.execute("COMMIT")
        return [None if cursor is None else cursor.fetchall() for cursor in readers]
    finally:
        for cursor in readers:
            if cursor is not None:
                cursor.close()
        if writer is not None:
            writer.close()


# -------------------------------------------------------------------------------------------
# Writes sent with the COMMIT


@dataclass(slots=True)
class _Deferred:
    statements: Sequence[Statement]
    unique: str  # a unique constraint whose violation by these statements means ``conflict``
    conflict: Callable[[], Exception] | None
    then: Callable[[list[list[Any] | None]], None] | None


_pending: ContextVar[list[_Deferred] | None] = ContextVar("brag_sql_pending", default=None)


def at_commit(
    statements: Sequence[Statement],
    *,
    unique: str = "",
    conflict: Callable[[], Exception] | None = None,
    then: Callable[[list[list[Any] | None]], None] | None = None,
) -> None:
    """Writes whose results nothing in the transaction reads again: inside an owned
    transaction (``core.transactions``) they are held back and go out with its COMMIT, in one
    round trip with it; anywhere else they run now. If they violate the unique constraint
    named ``unique``, ``conflict()`` is raised instead of the ``IntegrityError`` — after the
    whole transaction was rolled back (a database that does not name the violated constraint,
    SQLite, counts any ``IntegrityError`` of these statements). ``then`` gets the statements'
    rows once they ran.

    Nothing may read what they write before the commit: they have not run yet."""
    deferred = _Deferred(statements, unique, conflict, then)
    pending = _pending.get()
    if pending is not None:
        pending.append(deferred)
        return
    _flush([deferred], commit=False)


@contextmanager
def writes_now() -> Iterator[None]:
    """Inside, ``at_commit`` statements run at once even in an owned transaction: for a service
    that reads back what they wrote (the floor's disqualification returns a stack the
    settlement just paid)."""
    token = _pending.set(None)
    try:
        yield
    finally:
        _pending.reset(token)


@contextmanager
def writes_at_commit() -> Iterator[Callable[[], None]]:
    """The scope of an owned transaction: ``at_commit`` statements wait in it; call the
    yielded function last thing inside the transaction to send them — with its COMMIT, when
    the transaction is the connection's outermost (in a test's transaction it is a savepoint,
    and the test's transaction must stay open)."""
    outermost = not connection.in_atomic_block
    token = _pending.set([])
    try:
        yield lambda: _flush(_pending.get() or [], commit=outermost)
    finally:
        _pending.reset(token)


def _flush(pending: list[_Deferred], *, commit: bool) -> None:
    if not pending:
        return
    connection.ensure_connection()
    if not _pipelined():  # one group after the other: the failing one is known
        for deferred in pending:
            try:
                rows = run_batch(deferred.statements)
            except IntegrityError:
                if deferred.conflict is None:
                    raise
                raise deferred.conflict() from None
            if deferred.then is not None:
                deferred.then(rows)
        return
    statements = [s for d in pending for s in d.statements]
    try:
        with connection.wrap_database_errors:
            rows = _run(statements, commit=commit)
    except IntegrityError as err:
        name = getattr(getattr(err.__cause__, "diag", None), "constraint_name", None)
        for deferred in pending:
            if deferred.conflict is not None and name and deferred.unique == name:
                raise deferred.conflict() from None
        raise
    at = 0
    for deferred in pending:
        n = len(deferred.statements)
        if deferred.then is not None:
            deferred.then(rows[at : at + n])
        at += n


def json_param(value: Any) -> Any:
    """A value for a JSON column in hand-written SQL."""
    return JSONField().get_db_prep_value(value, connection)


def for_update_of(alias: str) -> str:
    """``FOR NO KEY UPDATE OF alias`` where the database has row locks (PostgreSQL); SQLite
    serialises writers on its own. ``NO KEY``: no key of these rows ever changes, and the
    weaker lock does not make a foreign-key check of another transaction (a row inserted that
    points at the locked one) wait — only the domain's own locks order who goes first."""
    if connection.features.has_select_for_update_of:
        return f" FOR NO KEY UPDATE OF {alias}"
    if connection.features.has_select_for_update:  # pragma: no cover - not a supported backend
        return " FOR UPDATE"
    return ""
