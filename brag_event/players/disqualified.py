"""Who is out of the event: a disqualification a floor ruling gave and no organiser lifted.

The penalty itself is the floor's row (``floor.models.Penalty``, given and lifted by
``floor.services``); the floor sits above the players, so the players' side reads the fact from
its own model, through the relation the penalty puts on it (``Player.penalties``), and owns the
kind's stored value, which the floor's ``Penalty.Kind`` takes from here."""

from __future__ import annotations

from django.db.models import QuerySet

from brag_event.events.models import Event

from .models import Player

# Penalty.Kind.DISQUALIFICATION's stored value (floor.models).
DISQUALIFIED = "disqualified"


def _out(players: QuerySet[Player]) -> QuerySet[Player]:
    return players.filter(
        penalties__kind=DISQUALIFIED, penalties__lifted_at__isnull=True
    ).distinct()


def disqualified_ids(event: Event | int) -> set[int]:
    """The players of the event disqualified and not lifted."""
    event_id = event if isinstance(event, int) else event.pk
    return set(_out(Player.objects.filter(event_id=event_id)).values_list("pk", flat=True))


def is_disqualified(player_id: int) -> bool:
    return _out(Player.objects.filter(pk=player_id)).exists()
