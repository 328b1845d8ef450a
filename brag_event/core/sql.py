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

import json
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


def run_batch(statements: Sequence[Statement]) -> list[Any]:
    """Run statements in order and return each one's first row (``None`` for statements that
    return nothing). On PostgreSQL they go out together in psycopg's pipeline mode — one network
    round trip instead of one each; a failing statement aborts the rest and raises the usual
    Django ``DatabaseError`` (e.g. ``IntegrityError``). Elsewhere they simply run one by one."""
    connection.ensure_connection()
    raw: Any = connection.connection
    pipelined = connection.vendor == "postgresql" and hasattr(raw, "pipeline")
    cursors = []
    with connection.wrap_database_errors:
        with raw.pipeline() if pipelined else nullcontext():
            for query, params in statements:
                cursor = connection.cursor()
                cursor.execute(query, params)
                cursors.append(cursor)
        rows = []
        for cursor in cursors:
            rows.append(cursor.fetchone() if cursor.description else None)
            cursor.close()
    return rows


def json_param(value: Any) -> Any:
    """A value for a JSON column in hand-written SQL."""
    return JSONField().get_db_prep_value(value, connection)


def dumps(value: Any) -> str:
    return json.dumps(value)


def for_update_of(alias: str) -> str:
    """``FOR UPDATE OF alias`` where the database has row locks (PostgreSQL); SQLite serialises
    writers on its own."""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    if connection.features.has_select_for_update:  # pragma: no cover - not a supported backend
        return " FOR UPDATE"
    return ""
