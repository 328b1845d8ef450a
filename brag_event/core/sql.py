"""Hand-written SQL for the hot path (entering an action), and the little it needs.

The statements of ``hand_apply_action`` are written out here once, as portable SQL (PostgreSQL and
SQLite), run through Django's cursor and hydrated into ordinary model instances: the ORM's query
compilation cost more than the statements (docs/api.md, "The action path"). Column lists come
from the models' ``_meta``; values go through the ORM's own converters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
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


def run_batch(statements: Sequence[Statement]) -> list[list[Any] | None]:
    """Run statements in order, in the current transaction, through Django's cursor (what a
    test's ``CaptureQueriesContext`` sees is what runs), and return each one's rows (``None``
    for statements that return none: neither a SELECT nor ``… RETURNING``). A failing
    statement raises the usual Django ``DatabaseError`` (e.g. ``IntegrityError``)."""
    out: list[list[Any] | None] = []
    with connection.cursor() as cursor:
        for query, params in statements:
            cursor.execute(query, params)
            out.append(cursor.fetchall() if _returns_rows(query) else None)
    return out


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
