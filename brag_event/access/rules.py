"""Every permission, decided here: ``can(who, "day.close", event)``.

A permission names the lowest role that holds it and whether it belongs to one event (then the
role is the user's role *in that event*) or to the whole site (then only a role for every
event counts: a group, or the superuser flag).

Why a table and not django-rules' predicates: each decision here is "at least this role, in
this event"; the API also needs the same decision as a queryset and as SQL (``api.roles``:
the tables a user may operate), which predicates evaluated object by object cannot give. A
table of names says it in one place, and a test reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from brag_event.core.actors import Actor

from .roles import DEALER, ORGANISER, PLAYER, SUPERVISOR, at_least, events_where, is_global
from .scoping import event_of_row


@dataclass(frozen=True)
class Permission:
    role: str  # the lowest role that holds it
    site: bool = False  # True: for the whole site, only a role for every event counts


PERMISSIONS: dict[str, Permission] = {
    # The site: events are created, device tokens of site staff and login locks handled.
    "event.create": Permission(ORGANISER, site=True),
    "logins.unlock": Permission(ORGANISER, site=True),
    # Series group events of every organiser: the site's organisers make them.
    "series.manage": Permission(ORGANISER, site=True),
    # People (players/people.py): who plays across events, their contact details, merging
    # duplicates. A person spans events, so only organisers of every event.
    "people.manage": Permission(ORGANISER, site=True),
    # An event's console (dashboard, set-up, players, seating, exports, audit, ledger).
    "event.manage": Permission(ORGANISER),
    "day.open": Permission(ORGANISER),
    "day.close": Permission(ORGANISER),
    # The end-of-day count (closing.count): the floor counts the tables; only an organiser
    # moves money on a difference or closes the day without its count.
    "count.enter": Permission(SUPERVISOR),
    "count.rule": Permission(ORGANISER),
    "count.waive": Permission(ORGANISER),
    "dealers.assign": Permission(ORGANISER),
    "rota.manage": Permission(ORGANISER),
    "staff.manage": Permission(ORGANISER),
    "tokens.manage": Permission(ORGANISER),
    "ledger.read": Permission(ORGANISER),
    "audit.read": Permission(ORGANISER),
    "players.register": Permission(ORGANISER),  # register players (the API's player list)
    "results.exchange": Permission(ORGANISER),  # a results file out of, or into, the event
    "player.link": Permission(ORGANISER),  # show, print and replace a player's private link
    "penalty.lift": Permission(ORGANISER),
    # The floor: calls, rulings, misdeals, voids, re-buys; the integrity monitor.
    "floor.view": Permission(SUPERVISOR),
    "floor.rule": Permission(SUPERVISOR),
    "hand.correct": Permission(SUPERVISOR),
    # A large pot's second confirmation (floor.services.hand_award_confirm): never its dealer.
    "hand.award_confirm": Permission(SUPERVISOR),
    "integrity.view": Permission(SUPERVISOR),
    "integrity.run": Permission(SUPERVISOR),
    "player.penalties": Permission(SUPERVISOR),
    # The check-in desk (organiser.checkin_views): find a player of the day, check them in,
    # seat a late arrival where balancing would. Opening the window stays "event.manage".
    "checkin.desk": Permission(SUPERVISOR),
    "checkin.seat_late": Permission(SUPERVISOR),
    # A table (its own tables only: ``api.roles.tables_for``).
    "table.operate": Permission(DEALER),
    "hand.entries": Permission(DEALER),
    # Seats at the table (sit out, come back, leave; a re-buy, whose consents the service
    # checks) and calling the floor to it.
    "seat.manage": Permission(DEALER),
    "floor.call": Permission(DEALER),
    "shift.sign": Permission(DEALER),  # sign in and out of dealing at a table (tables.shifts)
    # A player's own data.
    "player.self": Permission(PLAYER),
}


def _user(who: Any) -> Any:
    return who.user if isinstance(who, Actor) else who


def _event_id(event: Any) -> int | None:
    if event is None:
        return None
    return int(getattr(event, "pk", event))


def can(who: Any, permission: str, event: Any = None) -> bool:
    """Whether ``who`` (a user or an ``Actor``) holds ``permission`` in ``event`` (an event or
    its id). With no event, a permission of one event is held if it is held in any event —
    the coarse check before the event is known; the event's own check follows."""
    rule = PERMISSIONS[permission]
    user = _user(who)
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if not user.is_active:
        return False
    if rule.site:
        return is_global(user, rule.role)
    return at_least(user, rule.role, _event_id(event))


def events_where_can(who: Any, permission: str) -> set[int] | None:
    """The events in which ``who`` holds ``permission``: ``None`` for every event, else their
    ids (maybe none) — where the ids a request sends without naming its event are resolved
    (``scoping``)."""
    rule = PERMISSIONS[permission]
    user = _user(who)
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    if rule.site:
        return None if is_global(user, rule.role) else set()
    return events_where(user, rule.role)


def role_needed(permission: str) -> str:
    return PERMISSIONS[permission].role


# The model of the object each URL keyword names; the path to its event is declared once, with
# every model's, in ``scoping.EVENT_PATHS``.
EVENT_OF: dict[str, str] = {
    "day_id": "events.Day",
    "table_id": "tables.Table",
    "seat_id": "tables.Seat",
    "hand_id": "hands.Hand",
    "player_id": "players.Player",
    "call_id": "floor.FloorCall",
    "penalty_id": "floor.Penalty",
    "batch_id": "players.ImportBatch",
}


def event_of(kwargs: dict[str, Any]) -> int | None:
    """The event of the object a URL's keywords name (``event_id``, ``day_id``, ``table_id`` …);
    ``None`` if they name none, or no such object (the view answers 404 itself)."""
    if "event_id" in kwargs:
        return int(kwargs["event_id"])
    for name, label in EVENT_OF.items():
        if name in kwargs:
            return event_of_row(label, kwargs[name])
    return None
