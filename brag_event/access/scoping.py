"""No id crosses an event: every id a person sends — in an address, a body, a form or a query
string — is resolved among "the rows of model M that belong to event E", and the path from each
model to its event is declared once, here (``EVENT_PATHS``).

Built on ``rows_of_events``: the API's ``EventScopedId`` (``api/resources/fields.py``), the
console's ``EventScopedChoiceField`` and ``EventScopedMultipleChoiceField`` (below), and
``rules.event_of`` (the event of what an address names). An id of another event is refused exactly
as an id that names nothing: same code, same words. ``tests/access/test_scoping.py`` walks every
write route of the API and the console with each id swapped for another event's.

Models are named by app label (``apps.get_model``), as in ``rules``: this module stays below
the apps that play on a day (the layers in pyproject.toml)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Model, Q, QuerySet

from brag_event.core.forms import IdChoiceField, IdMultipleChoiceField

from .roles import STAFF_GROUPS

# The path from a row of each model to its event's id. A model not named here has no id that a
# person may send (a lookup of one fails loudly, ``KeyError``), except the users (below).
EVENT_PATHS: dict[str, str] = {
    "events.Event": "pk",
    "events.Day": "event_id",
    "events.Announcement": "event_id",
    "notify.FeedEntry": "event_id",
    "tables.Table": "day__event_id",
    "tables.Seat": "table__day__event_id",
    "tables.SeatingDraw": "day__event_id",
    "hands.Hand": "table__day__event_id",
    "players.Player": "event_id",
    "players.ImportBatch": "event_id",
    "floor.FloorCall": "table__day__event_id",
    "floor.Penalty": "event_id",
    "closing.SeatCount": "table_count__day__event_id",
    "audit.AuditEntry": "event_id",
}

# What each model is called in a refusal: "No such hand in this event."
NOUNS: dict[str, str] = {
    "events.Event": "event",
    "events.Day": "day",
    "events.Announcement": "announcement",
    "tables.Table": "table",
    "tables.Seat": "seat",
    "tables.SeatingDraw": "seating draw",
    "hands.Hand": "hand",
    "players.Player": "player",
    "players.ImportBatch": "import",
    "floor.FloorCall": "floor call",
    "floor.Penalty": "penalty",
    "closing.SeatCount": "seat's count",
    "audit.AuditEntry": "entry",
}

# An event, its id, several ids, or ``None``: every event (a role held for every event,
# ``roles.events_where``).
Events = Model | int | Iterable[int] | None


def model_of(model: str | type[Model]) -> type[Model]:
    return apps.get_model(model) if isinstance(model, str) else model


def label_of(model: str | type[Model]) -> str:
    return str(model_of(model)._meta.label)


def event_ids(events: Events) -> list[int] | None:
    """``events`` as a sorted list of ids (``None``: every event)."""
    if events is None:
        return None
    if isinstance(events, Model):
        return [int(events.pk)]
    if isinstance(events, int):
        return [events]
    return sorted({int(e) for e in events})


def _users_of(ids: list[int]) -> Q:
    """The users an event knows: its staff — a role of that event (``StaffRole``) or for every
    event (the staff groups, a superuser) — and whoever its audit log says did something."""
    in_its_log = rows_of_events("audit.AuditEntry", ids).values("actor_id")
    return (
        Q(staff_roles__event_id__in=ids)
        | Q(groups__name__in=STAFF_GROUPS)
        | Q(is_superuser=True)
        | Q(pk__in=in_its_log)
    )


def rows_of_events(model: str | type[Model], events: Events) -> QuerySet[Any]:
    """The rows of ``model`` that belong to ``events`` (``None``: every event's)."""
    cls = model_of(model)
    rows = cls._default_manager.all()
    ids = event_ids(events)
    if ids is None:
        return rows
    if cls._meta.label == settings.AUTH_USER_MODEL:
        # Through the roles (several rows per user): a subquery keeps the users distinct.
        return rows.filter(pk__in=cls._default_manager.filter(_users_of(ids)).values("pk"))
    return rows.filter(**{f"{EVENT_PATHS[cls._meta.label]}__in": ids})


def event_of_row(model: str | type[Model], pk: Any) -> int | None:
    """The event of ``model``'s row ``pk``; ``None`` if there is no such row."""
    cls = model_of(model)
    path = EVENT_PATHS[cls._meta.label]
    try:
        return int(cls._default_manager.values_list(path, flat=True).get(pk=pk))
    except (ObjectDoesNotExist, ValueError, TypeError, OverflowError):
        return None


def noun_of(model: str | type[Model]) -> str:
    label = label_of(model)
    return "user" if label == settings.AUTH_USER_MODEL else NOUNS[label]


# ------------------------------------------------------------------ the console's form fields


class _Scoped:
    """A form field choosing rows of ``model`` by id, among the rows of the form's event only:
    until ``scope`` is called it offers none (every id is refused)."""

    queryset: Any

    def _model_init(self, model: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        self.model = model
        kwargs.setdefault("queryset", model_of(model)._default_manager.none())
        return kwargs

    def scope(self, events: Events, *, among: QuerySet[Any] | None = None) -> None:
        """Offer the rows of ``events`` — only those of ``among`` (its order kept), if given."""
        rows = rows_of_events(self.model, events)
        self.queryset = rows if among is None else among.filter(pk__in=rows.values("pk"))


class EventScopedChoiceField(_Scoped, IdChoiceField):
    """One row of ``model`` by its id, among the rows of the form's event (``scope``); an id
    of another event is refused as one that names nothing: "Select a valid choice"."""

    def __init__(self, *, model: str, **kwargs: Any) -> None:
        super().__init__(**self._model_init(model, kwargs))


class EventScopedMultipleChoiceField(_Scoped, IdMultipleChoiceField):
    """Rows of ``model`` by their ids, among the rows of the form's event (``scope``)."""

    def __init__(self, *, model: str, **kwargs: Any) -> None:
        super().__init__(**self._model_init(model, kwargs))
