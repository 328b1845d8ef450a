"""Missed hands at the deal (RULES §4b): which seats sit the next hand out as a penalty, and
counting a dealt hand against them. Called inside ``hands.services.hand_start``'s transaction,
through the port the floor fills when it is ready (``tables.floor_rules``): the hands import
nothing of the floor."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

from .models import Penalty


def missed_hand_seats(seat_ids: Iterable[int]) -> set[int]:
    """The seats (of ``seat_ids``) that sit out the next hand as a penalty."""
    return set(
        Penalty.objects.filter(
            seat_id__in=list(seat_ids),
            kind=Penalty.Kind.MISSED_HANDS,
            hands_left__gt=0,
            lifted_at__isnull=True,
        ).values_list("seat_id", flat=True)
    )


def missed_hands_count_deal(*, hand: object, seat_ids: Iterable[int]) -> None:
    """A hand was dealt at the table while these seats sat it out: one hand fewer each."""
    ids = list(seat_ids)
    if ids:
        Penalty.objects.filter(
            seat_id__in=ids,
            kind=Penalty.Kind.MISSED_HANDS,
            hands_left__gt=0,
            lifted_at__isnull=True,
        ).update(hands_left=F("hands_left") - 1)
