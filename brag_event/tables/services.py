"""Tables and seats: buy-in, re-buy, sitting out, leaving. One transaction each, taking its row
locks up front in the domain's order — day, table, seat, player (docs/domain.md,
"Concurrency") — so that two of them, or one and a hand at the same table, never deadlock."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.engine import MONEY_MAX
from brag_event.events.models import Day
from brag_event.events.states import day_for_change, day_for_play, refuse_unless_open
from brag_event.ledger.models import Transfer
from brag_event.ledger.services import (
    account_house,
    account_player,
    account_stack,
    transfer_post,
)
from brag_event.players.disqualified import is_disqualified
from brag_event.players.models import Player
from brag_event.players.qualify import only_qualifiers
from brag_event.players.standings import ensure_started

from . import versions
from .floor_rules import floor_rules
from .in_play import dealt_in_play, table_in_play
from .models import RebuyConsent, Seat, Table
from .record import seat_record_leave, seat_record_sit


def qualifies(day: Day, player_id: int) -> bool:
    """Whether the player may sit down on ``day`` (``only_qualifiers``)."""
    return not only_qualifiers(day) or day.qualified.filter(player_id=player_id).exists()


def _check_affords(player: Player, amount: int, fee: int, what: str) -> None:
    if player.balance < amount + fee:
        raise ServiceError(
            "insufficient_balance",
            f"{player} has {player.balance}; {what} of {amount} plus the house fee of {fee} "
            f"needs {amount + fee}.",
            details={"balance": player.balance, "needed": amount + fee},
        )


def _pay_in(
    seat: Seat, player: Player, amount: int, fee: int, kind: str, by: Actor | None
) -> Transfer:
    """The house fee and the money onto the table, both from the player's balance."""
    table = seat.table
    what = "buy-in" if kind == Transfer.Kind.BUY_IN else "re-buy"
    where = f"table {table.number} seat {seat.number}"
    balance = account_player(player)
    if fee:
        transfer_post(
            kind=Transfer.Kind.HOUSE_FEE,
            source=balance,
            target=account_house(table.day.event),
            amount=fee,
            by=by,
            memo=f"house fee, {what} at {where}",
        )
    return transfer_post(
        kind=kind,
        source=balance,
        target=account_stack(seat),
        amount=amount,
        by=by,
        memo=f"{what} at {where}",
    )


@service_transaction
def table_create(*, day: Day, number: int | None = None, by: Actor | None) -> Table:
    """A new table on an open day (numbered after the last, unless ``number`` is given)."""
    day = day_for_change(day.pk)
    refuse_unless_open(day, "new tables")
    if number is None:
        last = day.tables.order_by("-number").values_list("number", flat=True).first()
        number = (last or 0) + 1
    if day.tables.filter(number=number).exists():
        raise ServiceError("table_exists", f"Table {number} already exists on day {day.number}.")
    # The dashboard lists the day's tables: a new one (at version 1) moves its version.
    table = Table.objects.create(day=day, number=number)
    audit_record(by=by, verb=Verb.TABLE_CREATE, subject=table, event_id=day.event_id)
    return table


@service_transaction
def seat_buy_in(
    *, table: Table, seat_number: int, player: Player, amount: int, by: Actor | None
) -> Seat:
    """Sit a player down with ``amount`` (table_min..table_max); the house fee is paid on top,
    both from the player's event balance."""
    day_id = Table.objects.values_list("day_id", flat=True).get(pk=table.pk)  # never changes
    day = day_for_play(day_id)
    table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
    table.day = day
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    refuse_unless_open(day, "buy-ins")
    if player.event_id != day.event_id:
        raise ServiceError("wrong_event", f"{player} is not registered for this event.")
    if is_disqualified(player.pk):
        raise Conflict(
            "disqualified", f"{player} is disqualified from the event and cannot be seated."
        )
    if (
        not isinstance(seat_number, int)
        or isinstance(seat_number, bool)
        or not 1 <= seat_number <= day.seats
    ):
        raise ServiceError(
            "invalid_seat", f"Seats are numbered 1 to {day.seats}.", details={"field": "seat"}
        )
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise ServiceError("invalid_amount", "The buy-in is a whole amount.")
    if amount > MONEY_MAX:
        raise ServiceError(
            "amount_too_large",
            f"A buy-in is at most {MONEY_MAX:,}.",
            details={"field": "amount", "max": MONEY_MAX},
        )
    if table.seats.filter(number=seat_number, left_at__isnull=True).exists():
        raise Conflict("seat_taken", f"Seat {seat_number} is taken.")
    current = Seat.objects.filter(player=player, left_at__isnull=True).select_related("table")
    if current.exists():
        where = current[0].table
        raise Conflict("already_seated", f"{player} is already seated at table {where.number}.")
    if not day.table_min <= amount <= day.table_max:
        raise ServiceError(
            "buy_in_out_of_range",
            f"A buy-in is between {day.table_min} and {day.table_max}; {amount} was asked.",
            details={"field": "amount", "min": day.table_min, "max": day.table_max},
        )
    if player.withdrawn_at is not None:
        raise ServiceError(
            "player_withdrawn", f"{player} has withdrawn from the event.", status=403
        )
    if not qualifies(day, player.pk):
        raise ServiceError(
            "not_qualified", f"{player} did not qualify for day {day.number}.", status=403
        )
    fee = day.house_fee
    _check_affords(player, amount, fee, "a buy-in")
    # Not seated anywhere: the balance is all the player holds as the day (re)starts.
    ensure_started(day_id=day.pk, player_id=player.pk, total=player.balance)
    seat = Seat.objects.create(table=table, number=seat_number, player=player, buy_in=amount)
    seat_record_sit(seat, day.event_id)
    _pay_in(seat, player, amount, fee, Transfer.Kind.BUY_IN, by)
    versions.table_changed(table.pk, standings=True)
    audit_record(
        by=by,
        verb=Verb.SEAT_BUY_IN,
        subject=seat,
        data={"amount": amount, "fee": fee},
        event_id=day.event_id,
    )
    seat.refresh_from_db()
    return seat


@service_transaction
def seat_rebuy(*, seat: Seat, consenting: Iterable[int], by: Actor | None) -> Seat:
    """The event sheet's re-buy: a player who has run out brings the same amount again, only
    between hands, with every other seated player's consent recorded, paying the fee again."""
    table_id, day_id, player_id = Seat.objects.values_list(
        "table_id", "table__day_id", "player_id"
    ).get(pk=seat.pk)  # a seat never changes table or player
    day = day_for_play(day_id)
    table = Table.objects.select_for_update(no_key=True).get(pk=table_id)
    seat = Seat.objects.select_for_update(no_key=True).get(pk=seat.pk)
    table.day = day
    seat.table = table
    player = Player.objects.select_for_update(no_key=True).get(pk=player_id)
    seat.player = player
    if seat.left_at is not None:
        raise ServiceError("not_seated", f"{player} has left the table.")
    refuse_unless_open(day, "re-buys")
    if table_in_play(table):
        raise Conflict("hand_in_progress", "A re-buy is only allowed between hands.")
    if seat.stack >= max(day.ante, 1):
        raise ServiceError(
            "not_run_out",
            f"{player} still has {seat.stack} on the table; a re-buy is for a player who has "
            "run out.",
        )
    others = set(
        table.seats.filter(left_at__isnull=True)
        .exclude(pk=seat.pk)
        .values_list("player_id", flat=True)
    )
    given = set(consenting)
    if day.rebuy_needs_consent:
        strangers = given - others
        if strangers:
            raise ServiceError(
                "invalid_consent",
                "Only players seated at this table can consent.",
                details={"players": sorted(strangers)},
            )
        missing = others - given
        if missing:
            names = ", ".join(
                Player.objects.filter(pk__in=missing)
                .order_by("name")
                .values_list("name", flat=True)
            )
            raise ServiceError(
                "consent_missing",
                f"Every other seated player must agree to the re-buy; missing: {names}.",
                details={"players": sorted(missing)},
            )
    amount = seat.buy_in
    fee = day.house_fee if day.rebuy_pays_fee else 0
    _check_affords(player, amount, fee, "the re-buy")
    transfer = _pay_in(seat, player, amount, fee, Transfer.Kind.REBUY, by)
    versions.table_changed(table.pk, standings=True)
    for player_id in sorted(given & others):
        RebuyConsent.objects.create(
            rebuy_seat=seat,
            transfer_id=transfer.pk,
            consenting_id=player_id,
            recorded_by=by.user if by and by.user_id else None,
        )
    audit_record(
        by=by,
        verb=Verb.SEAT_REBUY,
        subject=seat,
        data={"amount": amount, "fee": fee, "consents": sorted(given & others)},
        event_id=day.event_id,
    )
    seat.refresh_from_db()
    return seat


@service_transaction
def seat_sit_out(*, seat: Seat, sitting_out: bool, by: Actor | None) -> Seat:
    """Sit out from the next hand on (or come back): before or after a hand start at the table,
    never during one (the table's lock)."""
    table_id = Seat.objects.values_list("table_id", flat=True).get(pk=seat.pk)
    Table.objects.select_for_update(no_key=True).only("pk").get(pk=table_id)
    seat = Seat.objects.select_for_update(no_key=True).get(pk=seat.pk)
    if seat.left_at is not None:
        raise ServiceError("not_seated", "That player has left the table.")
    if seat.sitting_out != sitting_out:
        seat.sitting_out = sitting_out
        seat.save(update_fields=["sitting_out"])
        versions.table_changed(seat.table_id)
        audit_record(
            by=by,
            verb=Verb.SEAT_SIT_OUT if sitting_out else Verb.SEAT_COME_BACK,
            subject=seat,
        )
    return seat


def seat_vacate(*, seat: Seat, table: Table, player: Player, by: Actor | None, memo: str) -> int:
    """A step of a leave or a move, in its transaction with ``table`` and ``seat`` locked: the
    seat's stack goes back to ``player``'s balance (a leave transfer, with ``memo``), a blind
    hand kept at the seat is dead, and the seat is left now. Returns the stack returned."""
    returned = seat.stack
    if returned:
        transfer_post(
            kind=Transfer.Kind.LEAVE,
            source=account_stack(seat),
            target=account_player(player),
            amount=returned,
            by=by,
            memo=memo,
        )
    if table.carried_seat == seat.number:
        # The kept blind hand is dead; the carried pot stays with the table for the next hand.
        table.carried_seat = None
        table.save(update_fields=["carried_seat"])
    seat.refresh_from_db()
    seat_record_leave(seat, table.day.event_id)
    seat.left_at = timezone.now()
    seat.save(update_fields=["left_at", "leave_seq", "leave_hash"])
    return returned


@service_transaction
def seat_leave(
    *, seat: Seat, by: Actor | None, folded_out: bool = False, disqualified: bool = False
) -> Seat:
    """Leave the table: the stack goes back to the player's balance. Allowed while the day is
    open, and while it is closing (the close returns every stack this way). ``folded_out``:
    the floor has just folded this player out of the hand in play (a disqualification, RULES
    §4b), so their stack is final and leaves now. ``disqualified``: the floor's ruling sends
    the player away even while a large pot at the table waits for its second confirmation (a
    supervisor's ruling is the floor's own look at the table); anyone else waits for it."""
    table_id = Seat.objects.values_list("table_id", flat=True).get(pk=seat.pk)
    # The table, then the seat: a hand start holds the table and then takes the seats' antes.
    table = Table.objects.select_for_update(no_key=True).get(pk=table_id)
    seat = (
        Seat.objects.select_for_update(no_key=True, of=("self",))
        .select_related("table", "player")
        .get(pk=seat.pk)
    )
    if seat.left_at is not None:
        raise ServiceError("not_seated", f"{seat.player} has already left.")
    if not folded_out and dealt_in_play(seat):
        raise Conflict(
            "player_in_hand", f"{seat.player} is in the hand being played; leave after it."
        )
    waiting = None if disqualified else floor_rules().award_waiting(table.pk)
    if waiting is not None:
        # The pot stays at the table until it is confirmed: were it wrong, its undo reverses
        # what it paid, which a player who has left took with them.
        raise Conflict(
            "award_unconfirmed",
            f"Hand {waiting.hand.number}: {waiting.words} waits for a second member of staff. "
            "Nobody leaves the table until a supervisor who did not deal it has confirmed it.",
            details={"hand": waiting.hand_id, "amount": waiting.amount},
        )
    returned = seat_vacate(
        seat=seat, table=table, player=seat.player, by=by, memo=f"left table {table.number}"
    )
    versions.table_changed(table.pk, standings=True)
    audit_record(
        by=by,
        verb=Verb.SEAT_LEAVE,
        subject=seat,
        data={"stack": returned},
        event_id=seat.player.event_id,
    )
    return seat
