"""Withdrawing a player from the event, and taking a withdrawal back.

**Withdrawn** (docs/domain.md, "Withdrawing a player"): a player who leaves the event. Refused
while they are dealt into a hand in play (withdraw them when it ends); if they sit at a table
between hands, they leave it first — their stack goes back to their balance, as any leave. From
then on they are never drawn, bought in or qualified for a later day, and the pages show them as
withdrawn. Their money stays theirs in the ledger (nothing is taken or paid out), and their hands
and standings stay as they were."""

from __future__ import annotations

from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict
from brag_event.core.transactions import service_transaction
from brag_event.events.states import refuse_if_imported
from brag_event.players.models import Player

from . import versions
from .in_play import dealt_in_play
from .models import Seat
from .services import seat_leave


def _seat_of(player: Player) -> Seat | None:
    return Seat.objects.filter(player=player, left_at__isnull=True).select_related("table").first()


@service_transaction
def player_withdraw(*, player: Player, reason: str = "", by: Actor | None) -> Player:
    """Withdraw a player from the event (the module's docstring says what that means)."""
    player = Player.objects.get(pk=player.pk)
    refuse_if_imported(player.event_id, "its players")
    if player.withdrawn_at is not None:
        raise Conflict("already_withdrawn", f"{player} was already withdrawn.")
    seat = _seat_of(player)
    left_table = None
    if seat is not None:
        if dealt_in_play(seat):
            raise Conflict(
                "player_in_hand",
                f"{player} is in the hand being played at table {seat.table.number}: withdraw "
                "them when it ends.",
                details={"table": seat.table.number},
            )
        # The table, the seat, then the player (the domain's lock order). If a hand was dealt
        # meanwhile, seat_leave refuses in words.
        seat_leave(seat=seat, by=by)
        left_table = seat.table.number
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    # A buy-in locks the player too: one that got in first is seen here; one that comes after
    # waits, then sees the withdrawal and is refused.
    seated = _seat_of(player)
    if seated is not None:
        raise Conflict(
            "player_seated",
            f"{player} was just seated at table {seated.table.number}: try again.",
            details={"table": seated.table.number},
        )
    player.withdrawn_at = timezone.now()
    player.save(update_fields=["withdrawn_at"])
    versions.event_changed(player.event_id)
    audit_record(
        by=by,
        verb=Verb.PLAYER_WITHDRAW,
        subject=player,
        data={
            "player": player.pk,
            "reason": " ".join(str(reason).split())[:200],
            "left_table": left_table,
            "balance": player.balance,
        },
        event_id=player.event_id,
    )
    return player


@service_transaction
def player_reinstate(*, player: Player, by: Actor | None) -> Player:
    """Take a withdrawal back: the player can be drawn and seated again (on a later day, only if
    the close of the day before qualified them)."""
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    refuse_if_imported(player.event_id, "its players")
    if player.withdrawn_at is None:
        raise Conflict("not_withdrawn", f"{player} is not withdrawn.")
    if player.removed_at is not None:
        raise Conflict(
            "player_removed",
            f"{player} was removed as registered by mistake and their money taken back: "
            "register them again instead.",
        )
    player.withdrawn_at = None
    player.save(update_fields=["withdrawn_at"])
    versions.event_changed(player.event_id)
    audit_record(
        by=by,
        verb=Verb.PLAYER_REINSTATE,
        subject=player,
        data={"player": player.pk},
        event_id=player.event_id,
    )
    return player
