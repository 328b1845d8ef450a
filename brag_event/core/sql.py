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

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, JSONField, Model

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
def _converters(model: type[Model], vendor: str) -> tuple[tuple[Any, tuple[Converter, ...]], ...]:
    out = []
    for f in _fields(model):
        col = f.get_col(model._meta.db_table)
        convs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        out.append((col, tuple(convs)))
    return tuple(out)


def hydrate(model: type[M], row: Sequence[Any], start: int = 0) -> tuple[M, int]:
    """An instance of ``model`` from ``row[start:]`` (as selected by ``columns``), and where the
    next model's columns begin."""
    fields = _fields(model)
    values = list(row[start : start + len(fields)])
    for i, (col, convs) in enumerate(_converters(model, connection.vendor)):
        for conv in convs:
            values[i] = conv(values[i], col, connection)
    instance = model.from_db(connection.alias, [f.attname for f in fields], values)
    return instance, start + len(fields)


Statement = tuple[str, list[Any]]

MAX_ID = 2**63 - 1


def possible_id(pk: int) -> bool:
    """Whether ``pk`` can be a row id at all (an id from a URL can be any number of digits; the
    ORM answers "no such row" for those, so hand-written look-ups must too)."""
    return 0 < pk <= MAX_ID


def _returns_rows(query: str) -> bool:
    return query.startswith("SELECT") or " RETURNING " in query


def run_batch(statements: Sequence[Statement]) -> list[list[Any] | None]:
    """Run statements in order, in the current transaction, and return each one's rows
    (``None`` for statements that return none: neither a SELECT nor ``… RETURNING``). On
    PostgreSQL they go out together in psycopg's pipeline mode — with the transaction's BEGIN
    if it is the first — in one network round trip instead of one each; a failing statement
    aborts the rest and raises the usual Django ``DatabaseError`` (e.g. ``IntegrityError``).
    Elsewhere they simply run one by one."""
    connection.ensure_connection()
    raw: Any = connection.connection
    pipelined = connection.vendor == "postgresql" and hasattr(raw, "pipeline")
    readers: list[Any] = []
    with connection.wrap_database_errors:
        writer = None
        with raw.pipeline() if pipelined else nullcontext():
            for query, params in statements:
                if _returns_rows(query):
                    cursor = connection.cursor()
                    readers.append(cursor)
                else:  # statements without rows share one cursor
                    cursor = writer = writer or connection.cursor()
                    readers.append(None)
                cursor.execute(query, params)
        out: list[list[Any] | None] = []
        for cursor in readers:
            out.append(None if cursor is None else cursor.fetchall())
            if cursor is not None:
                cursor.close()
        if writer is not None:
            writer.close()
    return out


def json_param(value: Any) -> Any:
    """A value for a JSON column in hand-written SQL."""
    return JSONField().get_db_prep_value(value, connection)


def for_update_of(alias: str) -> str:
    """``FOR UPDATE OF alias`` where the database has row locks (PostgreSQL); SQLite serialises
    writers on its own."""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    if connection.features.has_select_for_update:  # pragma: no cover - not a supported backend
        return " FOR UPDATE"
    return ""
