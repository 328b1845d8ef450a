"""Read side of the floor: open calls, a player's penalties, large pots waiting. Who is out of the
event is the players' side's to say (``players.disqualified``)."""

from __future__ import annotations

from django.db.models import QuerySet

from brag_event.events.models import Event

from .models import AwardConfirmation, FloorCall, Penalty


def open_calls(event: Event | int) -> QuerySet[FloorCall]:
    """Calls not yet resolved, oldest first, with their table and hand."""
    event_id = event if isinstance(event, int) else event.pk
    return (
        FloorCall.objects.filter(event_id=event_id)
        .exclude(status=FloorCall.Status.RESOLVED)
        .select_related("table", "hand", "called_by", "taken_by")
        .order_by("called_at", "id")
    )


def player_penalties(player_id: int) -> QuerySet[Penalty]:
    """A player's warnings and penalties, newest first, with the ruling behind each."""
    return (
        Penalty.objects.filter(player_id=player_id)
        .select_related("ruling", "seat__table")
        .order_by("-created_at", "-id")
    )


def awards_of(event: Event | int) -> tuple[list[AwardConfirmation], list[AwardConfirmation]]:
    """The event's large pots waiting for a second member of staff (oldest first), and the last
    ten confirmed (newest first), for the floor board."""
    rows = AwardConfirmation.objects.filter(event=event).select_related(
        "table__day", "hand", "entered_by", "confirmed_by"
    )
    waiting = list(rows.filter(status=AwardConfirmation.Status.WAITING).order_by("asked_at", "id"))
    confirmed = list(
        rows.filter(status=AwardConfirmation.Status.CONFIRMED).order_by("-confirmed_at")[:10]
    )
    return waiting, confirmed
