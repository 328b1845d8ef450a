"""Starting hands, applying actions, voiding the last action.

Every service validates with the engine (a replay of the stored log), appends to the log, and
posts exactly the transfers the engine's money movements describe — all in one transaction, with
the hand's row locked so two tablets cannot both act on the same state."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.db import IntegrityError
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core import sql
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, Forbidden, NotFound, ServiceError, StaleHand
from brag_event.core.transactions import service_transaction
from brag_event.engine import (
    FLOOR_ACTIONS,
    Action,
    EngineError,
    HandState,
    SeatSetup,
    cards_str,
)
from brag_event.engine.history import outcome_dict
from brag_event.engine.tablet import first_dealer
from brag_event.events.states import day_for_play, refuse_unless_open
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import (
    account_carried,
    account_house,
    account_pot,
    transfer_reverse,
    transfers_post,
    transfers_statements,
)
from brag_event.players.standings import started_statement, won_statement
from brag_event.tables import versions
from brag_event.tables.floor_rules import floor_rules
from brag_event.tables.models import Seat, Table
from brag_event.tables.shifts import shift_refuse_relieved

from . import chain, statements
from .models import ACTION_SEQ_UNIQUE, ActionVoid, Hand, HandAction
from .money import (
    LogRow,
    Movement,
    applied_movements,
    log_action,
    pots_of,
    replay_actions,
    start_movements,
)
from .selectors import hand_live_actions, hand_state


class _Places:
    """Resolves the money symbols of a hand to ledger accounts. The ids are remembered on the
    hand (``Hand.accounts``), so an action needs no account look-ups."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.event_id = hand.table.day.event_id
        self.seats = {s["seat"]: s for s in hand.seats}
        self.changed = False

    def _fields(self, place: tuple[Any, ...]) -> dict[str, Any]:
        kind = place[0]
        fields: dict[str, Any] = {"event_id": self.event_id, "kind": kind}
        if kind == "stack":
            seat = self.seats[place[1]]
            fields.update(seat_id=seat["seat_id"], player_id=seat["player_id"])
        elif kind == "pot":
            fields.update(hand_id=self.hand.pk, pot_index=place[1], table_id=self.hand.table_id)
        elif kind == "carried":
            fields.update(table_id=self.hand.table_id)
        elif kind != "house":  # pragma: no cover - the symbols come from hands.money
            raise ValueError(place)
        return fields

    @staticmethod
    def key(place: tuple[Any, ...]) -> str:
        return ":".join(str(p) for p in place)

    def learn_stacks(self, places: list[tuple[Any, ...]]) -> None:
        """Look up the stack accounts of several seats in one query."""
        wanted = {
            self.seats[p[1]]["seat_id"]: self.key(p)
            for p in places
            if p[0] == "stack" and self.key(p) not in self.hand.accounts
        }
        if not wanted:
            return
        found = Account.objects.filter(
            event_id=self.event_id, kind=Account.Kind.STACK, seat_id__in=list(wanted)
        ).values_list("seat_id", "pk")
        for seat_id, pk in found:
            self.hand.accounts[wanted[seat_id]] = pk
            self.changed = True

    def account(self, place: tuple[Any, ...]) -> Account:
        key = self.key(place)
        fields = self._fields(place)
        known = self.hand.accounts.get(key)
        if known is not None:
            return Account(id=known, **fields)
        kind = place[0]
        if kind == "stack":
            found = Account.objects.get_or_create(
                event_id=self.event_id,
                kind=Account.Kind.STACK,
                seat_id=fields["seat_id"],
                defaults={"player_id": fields["player_id"]},
            )[0]
        elif kind == "pot":
            found = account_pot(self.hand, place[1])
        elif kind == "house":
            found = account_house(self.hand.table.day.event)
        else:
            found = account_carried(self.hand.table)
        self.hand.accounts[key] = found.pk
        self.changed = True
        return found


def _legs(
    hand: Hand, moves: list[Movement]
) -> tuple[list[tuple[str, Account, Account, int]], bool]:
    """The movements with their accounts resolved, and whether new account ids were
    remembered on the hand."""
    places = _Places(hand)
    places.learn_stacks([p for _k, source, target, _a in moves for p in (source, target)])
    legs = [
        (kind, places.account(source), places.account(target), amount)
        for kind, source, target, amount in moves
    ]
    return legs, places.changed


def _winners(hand: Hand) -> list[int]:
    """The players who won money in a settled hand (from ``hand.result``)."""
    players = {s["seat"]: s["player_id"] for s in hand.seats}
    seats = {
        int(seat)
        for pot in (hand.result or {}).get("pots", [])
        for seat, share in pot.get("shares", {}).items()
        if share
    }
    return [players[s] for s in sorted(seats)]


def _memo(hand: Hand) -> str:
    return f"hand {hand.number} at table {hand.table.number}"


def _post(hand: Hand, moves: list[Movement], by: Actor | None, row: HandAction | None) -> bool:
    """Post the movements (one INSERT for the transfers); returns whether new account ids were
    remembered on the hand."""
    if not moves:
        return False
    legs, changed = _legs(hand, moves)
    transfers_post(legs=legs, by=by, hand=hand, action=row, memo=_memo(hand))
    return changed


def _check_seq(hand: Hand, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != hand.next_seq:
        raise StaleHand(
            "The hand has moved on since this screen was drawn; refresh and try again.",
            hand_id=hand.pk,
            expected_seq=hand.next_seq,
        )


def _dealer_for(table: Table, seated: list[int], sitting_out: Collection[int]) -> int:
    """The button's seat if seated and not sitting out, else the next such seat clockwise from
    it (the engine's rule, which the tablet also runs offline)."""
    return first_dealer(table.button, seated, table.day.seats, sitting_out)


def next_dealer_seat(
    table: Table, seated: list[int], sitting_out: Collection[int] = ()
) -> int | None:
    """The seat that deals the next hand at ``table`` with these seats taken and these sitting
    out (as ``hand_start`` will choose it); ``None`` with nobody seated."""
    return _dealer_for(table, sorted(seated), sitting_out) if seated else None


@service_transaction
def hand_start(
    *, table: Table | int, by: Actor | None, access: statements.Access | None = None
) -> Hand:
    """Deal the next hand at a table: the day's rules are frozen onto it, antes and any carried
    pot go into the first pot. ``access`` limits which tables may be used (an API caller's
    own); another table is ``not_found``."""
    # The day shared, then the table (the domain's lock order): a close waits for this start
    # to commit, and sees its hand; a start after the close began sees the day closing.
    found = statements.lock_table(
        table if isinstance(table, int) else table.pk, access, for_play=True
    )
    if found is None:
        raise NotFound("not_found", "Not found, or not yours to see.")
    table = found
    day = table.day
    refuse_unless_open(day, "new hands")
    shift_refuse_relieved(table_id=table.pk, event_id=day.event_id, by=by)
    # Hands of a table are sequential, so only the latest can be in progress.
    last = table.hands.order_by("-number").values_list("number", "status").first()
    if last is not None and last[1] == Hand.Status.IN_PROGRESS:
        raise Conflict("hand_in_progress", "Finish the hand in progress before starting another.")
    waiting = floor_rules().award_waiting(table.pk)
    if waiting is not None:
        raise Conflict(
            "award_unconfirmed",
            f"Hand {waiting.hand.number}: {waiting.words} waits for a second member of staff. "
            "The next hand starts once a supervisor who did not deal it has confirmed it, on "
            "the floor board or by signing in on this tablet.",
            details={"hand": waiting.hand_id, "amount": waiting.amount},
        )
    seats = list(
        Seat.objects.filter(table=table, left_at__isnull=True)
        .select_related("player")
        .order_by("number")
    )
    if len(seats) < 2:
        raise ServiceError("not_enough_players", "A hand needs at least two seated players.")
    rules = day.rules()
    numbers = [s.number for s in seats]
    dealer = _dealer_for(table, numbers, [s.number for s in seats if s.sitting_out])
    table_carried_seat = table.carried_seat
    carried_seat = table_carried_seat if table_carried_seat in numbers else None
    # Seats sitting out a floor penalty (RULES §4b: N missed hands) are not dealt in.
    missing = floor_rules().missed_hand_seats(s.pk for s in seats if not s.sitting_out)
    setups = [
        SeatSetup(s.number, s.player.name, s.stack, s.sitting_out, s.pk in missing) for s in seats
    ]
    try:
        state = HandState(
            rules,
            dealer,
            setups,
            carried_pot=table.carried_pot,
            carried_seat=carried_seat,
            first_deal=table.shuffle_next,
        )
    except EngineError as err:
        raise ServiceError.from_engine(err) from None
    dealt = {p.seat for p in state.players}
    hand = Hand.objects.create(
        table=table,
        number=(last[0] if last else 0) + 1,
        dealer_seat=dealer,
        rules=rules.to_dict(),
        seats=[
            {
                "seat": s.number,
                "player": s.player.name,
                "player_id": s.player_id,
                "seat_id": s.pk,
                "stack": s.stack,
                "sitting_out": s.sitting_out,
                "dealt": s.number in dealt,
                **({"penalty": True} if s.pk in missing else {}),
            }
            for s in seats
        ],
        carried_pot=table.carried_pot,
        carried_seat=carried_seat,
        shuffle_before=table.shuffle_next,
        started_by=by.user if by and by.user_id else None,
    )
    hand.table = table
    # The record starts from the hand's set-up (written with the pot's account below).
    hand.chain_head = chain.chain_next_genesis(hand, table.number)
    Hand.dealt_players.through.objects.bulk_create(
        [
            Hand.dealt_players.through(hand_id=hand.pk, player_id=s.player_id)
            for s in seats
            if s.number in dealt
        ]
    )
    dealt_players = [(s.player_id, s.player.balance + s.stack) for s in seats if s.number in dealt]
    sql.run_batch([started_statement(day_id=day.pk, players=dealt_players)])
    pot = Account.objects.create(
        event_id=day.event_id, kind=Account.Kind.POT, hand=hand, pot_index=0, table=table
    )
    hand.accounts["pot:0"] = pot.pk
    floor_rules().missed_hands_count_deal(hand=hand, seat_ids=missing)
    _post(hand, start_movements(state), by, None)
    hand.save(update_fields=["accounts", "chain_head"])
    table.button = dealer
    table.carried_seat = None
    table.save(update_fields=["button", "carried_seat"])
    versions.table_changed(table.pk)  # not the standings: a hand counts there when it ends
    audit_record(
        by=by,
        event_id=day.event_id,
        verb=Verb.HAND_START,
        subject=hand,
        day=day,
        data={
            "dealer": dealer,
            "dealt": sorted(dealt),
            "carried": hand.carried_pot,
            # A kept blind hand whose owner left, sits out or cannot pay the ante is dead.
            "kept_hand_dead": table_carried_seat
            if table_carried_seat is not None and table_carried_seat not in dealt
            else None,
        },
    )
    return hand


def _as_action(data: Action | Mapping[str, Any]) -> Action:
    """An action as the engine takes it. Nothing is checked here but that it is an object: the
    engine checks its name, seat, amount, hand and cards (``HandState.apply``), once."""
    if isinstance(data, Action):
        action = data
    elif isinstance(data, Mapping):
        kind: Any = data.get("action")  # the engine says whether it names an action
        action = Action(
            kind, data.get("seat"), data.get("amount"), data.get("hand"), data.get("cards")
        )
    else:
        raise ServiceError("invalid_action", "An action is an object with at least 'action'.")
    if action.action in FLOOR_ACTIONS:  # the floor's own service declares those
        raise Forbidden(
            "floor_only",
            "Only the floor enters a misdeal or a disqualification, through the floor's page.",
        )
    return action


def _lock(hand: Hand | int, access: statements.Access | None) -> tuple[Hand, list[LogRow]]:
    """The hand's row, locked until the end of the transaction, and its live log — read only
    if ``access`` (the tables the caller may operate) reaches it: one round trip."""
    found = statements.lock_hand(hand if isinstance(hand, int) else hand.pk, access)
    if found is None:
        raise NotFound("not_found", "Not found, or not yours to see.")
    return found


@service_transaction
def hand_apply_action(
    *,
    hand: Hand | int,
    action: Action | Mapping[str, Any],
    expected_seq: int | None,
    by: Actor | None,
    access: statements.Access | None = None,
) -> tuple[Hand, HandAction, HandState]:
    """Validate ``action`` with the engine, append it and post its money. ``expected_seq`` is
    the sequence number the tablet expects this action to get; if the hand has moved on, the
    answer is a conflict and nothing is written. ``access`` limits which tables may be acted
    on (an API caller's own); a hand elsewhere is ``not_found``.

    The action's row (who entered it, from which device, when) is its audit record. This is
    the hot path of the API: its statements are hand-written (``hands.statements``)."""
    hand, log = _lock(hand, access)
    _check_seq(hand, expected_seq)
    # A live hand exists only on an open day (hand starts and voids check it under the day's
    # lock, and the close refuses while a hand is live), so no lock on the day is needed here.
    refuse_unless_open(hand.table.day, "actions")
    shift_refuse_relieved(table_id=hand.table_id, event_id=hand.table.day.event_id, by=by)
    row, state = _append(hand, log, _as_action(action), by)
    return hand, row, state


@service_transaction
def hand_disqualify_seat(
    *, hand: Hand | int, seat: int, by: Actor | None
) -> tuple[Hand, HandAction, HandState]:
    """The floor's fold of a disqualified player's live hand (RULES §4b): the engine's
    ``disqualify`` action, appended, chained and posted like any action — and, if it ends the
    hand, settled by the same path. Only the floor's ruling service calls this."""
    hand, log = _lock(hand, None)
    if hand.status != Hand.Status.IN_PROGRESS:
        raise Conflict("hand_not_in_play", "That hand has ended.")
    refuse_unless_open(hand.table.day, "actions")
    row, state = _append(hand, log, Action("disqualify", seat), by)
    return hand, row, state


@service_transaction
def hand_apply_misdeal(
    *, hand: Hand | int, reason: str, by: Actor | None
) -> tuple[Hand, HandAction, HandState]:
    """The floor's misdeal (RULES §4b): the engine's ``misdeal`` action, appended, chained and
    posted like any action — its refunds are the movements ``hands.money`` derives (every stake
    back to where it came from), and the table is set for the same dealer to deal again,
    shuffled. Only the floor's misdeal service calls this (it checks the reason and the day)."""
    hand, log = _lock(hand, None)
    if hand.status != Hand.Status.IN_PROGRESS:
        raise Conflict("hand_not_in_play", "Only a hand in play can be misdealt.")
    row, state = _append(hand, log, Action("misdeal", reason=reason), by)
    return hand, row, state


def _append(
    hand: Hand, log: list[LogRow], act: Action, by: Actor | None
) -> tuple[HandAction, HandState]:
    """Apply ``act`` to the locked ``hand`` (its live ``log``), append it to the hand's record
    and post its money, and the settlement's if it ended the hand."""
    state = hand_state(hand, log)
    before = pots_of(state)
    try:
        state.apply(act)
    except EngineError as err:
        raise ServiceError.from_engine(err) from None
    cards = ""
    if act.action == "show" and act.seat is not None:
        shown = state.by_seat[act.seat].cards
        cards = cards_str(shown) if shown else ""
    seq = hand.next_seq
    # As the engine logged it: a see entered without its amount is stored with the cost paid.
    amount = state.log[-1].amount if state.log else act.amount
    hand_choice = act.hand or ""
    # The record: one SHA-256 of the previous hash and this action (hands.chain), under the
    # hand's row lock; the new head is written with the hand's sequence below.
    digest = chain.chain_next(
        hand, chain.action_content(seq, act.seat, act.action, amount, hand_choice, cards)
    )
    insert, row = statements.insert_action(
        hand_id=hand.pk,
        seq=seq,
        seat=act.seat,
        action=act.action,
        amount=amount,
        hand_choice=hand_choice,
        cards=cards,
        entered_by_id=by.user_id if by else None,
        device=(by.device if by else "")[:120],
        digest=digest,
    )
    row.hand = hand
    moves = applied_movements(
        before, state, act, lambda: replay_actions(hand, map(log_action, log))[1]
    )
    legs, accounts_changed = _legs(hand, moves)
    fields = ["next_seq", "chain_head"] + (["accounts"] if accounts_changed else [])
    hand.next_seq += 1
    if state.outcome is not None:
        hand.status = Hand.Status.SETTLED
        hand.result = outcome_dict(state)
        hand.settled_at = timezone.now()
        fields += ["status", "result", "settled_at"]
    # The writes: the action, its transfers (naming the action by its (hand, seq)), the cached
    # stacks, the hand's sequence; what the table's readers see changed (and the standings,
    # when the hand ended).
    table_update: list[sql.Statement] = [
        versions.table_changed_statement(hand.table_id, standings=state.outcome is not None)
    ]
    if state.outcome is not None:
        outcome = state.outcome
        table = hand.table
        table.button = outcome.next_dealer
        table.shuffle_next = outcome.shuffle
        table.carried_seat = outcome.carried_seat
        table_update.append(
            statements.update_table(table, ["button", "shuffle_next", "carried_seat"])
        )
    batch = [
        insert,
        # The table before the seats, as everywhere (hand → table → seats): a seat move or a
        # leave at this table holds the table and then wants a seat this settlement pays.
        *table_update,
        *transfers_statements(
            legs=legs,
            by=by,
            hand_id=hand.pk,
            action=statements.action_id(hand.pk, seq),
            memo=_memo(hand),
        ),
        statements.update_hand(hand, fields),
    ]
    winners = _winners(hand) if state.outcome is not None else []
    if winners:
        batch.append(won_statement(day_id=hand.table.day_id, player_ids=winners))

    row.pk = _write(batch, hand_id=hand.pk, seq=seq)
    row._state.adding = False
    if state.outcome is not None and not state.misdealt:
        # After the writes above (the table's and seats' rows): a large pot's waiting is an
        # entry of the event's money record, whose row is locked last.
        _ask_award(hand, seq, by)
    return row, state


def _ask_award(hand: Hand, seq: int, by: Actor | None) -> None:
    """A large pot (the day's ``award_confirm_from``) waits for a second member of staff: asked
    here, as the hand settles, and said in the audit log. Nothing happens on a day that asks
    for none."""
    award = floor_rules().award_ask(
        hand=hand, settled_seq=seq, entered_by_id=by.user_id if by else None
    )
    if award is not None:
        audit_record(
            by=by,
            event_id=hand.table.day.event_id,
            verb=Verb.HAND_AWARD_WAITS,
            subject=hand,
            day=hand.table.day_id,
            data={"awards": award.awards, "threshold": award.threshold},
        )


def _write(batch: list[sql.Statement], *, hand_id: int, seq: int) -> int:
    """Run an action's writes (the first inserts it, ``RETURNING`` its id); the id. The
    (hand, seq) constraint is a backstop behind the hand's row lock, which serialises its
    actions: its violation is the stale answer (the transaction is then unusable; the service
    leaves it with the error)."""
    try:
        rows = sql.run_batch(batch)
    except IntegrityError as err:
        name = getattr(getattr(err.__cause__, "diag", None), "constraint_name", None)
        if name is not None and name != ACTION_SEQ_UNIQUE:  # SQLite names no constraint
            raise
        raise StaleHand(
            "Another device entered this action first; refresh and try again.",
            hand_id=hand_id,
            expected_seq=seq + 1,
        ) from None
    first = rows[0]
    assert first  # RETURNING id
    return int(first[0][0])


def lock_day_of_hand(hand_id: int) -> None:
    """The first lock of a correction to a hand (a void, a misdeal), in the domain's order:
    its day, share-locked (``day_for_play``); nothing for an id that names no hand (the hand's
    own lock then answers "not found")."""
    day_id = (
        Hand.objects.filter(pk=hand_id).values_list("table__day_id", flat=True).first()
        if sql.possible_id(hand_id)
        else None
    )
    if day_id is not None:
        day_for_play(day_id)


@service_transaction
def hand_void_last_action(
    *,
    hand: Hand | int,
    reason: str,
    expected_seq: int | None = None,
    by: Actor | None,
    access: statements.Access | None = None,
) -> tuple[Hand, HandState]:
    """A supervisor's undo: the last live action is voided (with the reason), its transfers are
    reversed, and the hand replays without it. A settled hand reopens — only on an open day,
    and only while every player dealt into it is still at the table: the money a settlement
    paid a player who has since left went with them (docs/domain.md, "Undo knows who is
    still there")."""
    return _void_last(
        hand_id=hand if isinstance(hand, int) else hand.pk,
        reason=reason,
        expected_seq=expected_seq,
        by=by,
        access=access,
        at_table=None,
    )


# The reasons a dealer picks from when taking back their own last entry (the tablet offers
# these words); the code is what the API takes.
TAKE_BACK_REASONS = {
    "wrong_seat": "wrong seat",
    "wrong_amount": "wrong amount",
    "wrong_action": "wrong action",
    "other": "other",
}


@service_transaction
def hand_take_back(
    *,
    hand: Hand | int,
    reason: str,
    expected_seq: int | None = None,
    by: Actor | None,
    access: statements.Access | None = None,
    anyones: bool = False,
) -> tuple[Hand, HandState]:
    """The dealer's own correction at the table: the last action of the hand in play is voided
    exactly as a supervisor's undo voids it (reversing entries, a void on the hand's record,
    the audit log) — but only while it is the hand's latest entry (nothing, not even another
    take-back, entered after it), only in a hand still in play, and only the caller's own
    entry unless ``anyones`` (a supervisor's tablet). Anything else stays a supervisor's undo
    (``hand_void_last_action``): refused with a code and a sentence. ``reason`` is a key of
    ``TAKE_BACK_REASONS``."""
    words = TAKE_BACK_REASONS.get(str(reason or ""))
    if words is None:
        raise ServiceError(
            "invalid_reason",
            "Pick why the entry is taken back: " + ", ".join(TAKE_BACK_REASONS.values()) + ".",
            details={"field": "reason", "choices": sorted(TAKE_BACK_REASONS)},
        )
    return _void_last(
        hand_id=hand if isinstance(hand, int) else hand.pk,
        reason=f"{words} (taken back at the table)",
        expected_seq=expected_seq,
        by=by,
        access=access,
        at_table=_TakeBack(reason=reason, anyones=anyones),
    )


class _TakeBack:
    """What limits a void entered at the table (``hand_take_back``)."""

    def __init__(self, *, reason: str, anyones: bool) -> None:
        self.reason = reason
        self.anyones = anyones

    @staticmethod
    def refuse_settled(hand: Hand) -> None:
        """A hand no longer in play is a supervisor's to correct."""
        if hand.status != Hand.Status.IN_PROGRESS:
            raise Forbidden(
                "hand_settled_supervisor_only",
                "This hand is settled: only a supervisor can correct it now. Call the floor.",
            )

    def refuse(self, hand: Hand, last: HandAction, by: Actor | None) -> None:
        """Refuse, with a code and a sentence, a void that is a supervisor's to make."""
        shift_refuse_relieved(table_id=hand.table_id, event_id=hand.table.day.event_id, by=by)
        if last.seq != hand.next_seq - 1:
            raise Forbidden(
                "earlier_entry_supervisor_only",
                "Only the last entry can be taken back at the table, before anything else is "
                "entered; anything further back is for a supervisor. Call the floor.",
            )
        if not self.anyones and (by is None or last.entered_by_id != by.user_id):
            raise Forbidden(
                "not_your_entry",
                "The last entry was made by someone else: only a supervisor can undo it. "
                "Call the floor.",
            )


def _void_last(
    *,
    hand_id: int,
    reason: str,
    expected_seq: int | None,
    by: Actor | None,
    access: statements.Access | None,
    at_table: _TakeBack | None,
) -> tuple[Hand, HandState]:
    """Void the last live action of the hand (the body of both voids, in their transaction);
    ``at_table`` limits it to what a dealer may take back."""
    # The domain's lock order: the day (shared: a close waits for this void and then sees a
    # reopened hand, or this void sees the day closing), the hand, its table.
    lock_day_of_hand(hand_id)
    hand, _log = _lock(hand_id, access)
    table = Table.objects.select_for_update(no_key=True).get(pk=hand.table_id)
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ServiceError(
            "reason_required", "Say why the action is voided.", details={"field": "reason"}
        )
    if at_table is not None:  # settled is for good: said even to a screen drawn before it
        at_table.refuse_settled(hand)
    _check_seq(hand, expected_seq)
    refuse_unless_open(hand.table.day, "corrections")
    if table.hands.filter(number__gt=hand.number).exists():
        raise Conflict("newer_hand", "A later hand has started at this table; it cannot be undone.")
    last = hand_live_actions(hand).last()
    if last is None:
        raise ServiceError("nothing_to_void", "No action of this hand is left to void.")
    if last.action == "disqualify":
        raise Conflict(
            "disqualified_out",
            "The floor folded a disqualified player out of this hand; it is not undone.",
        )
    if last.action in FLOOR_ACTIONS:
        raise Conflict("misdealt", "This hand was misdealt and its money given back: deal again.")
    if at_table is not None:
        at_table.refuse(hand, last, by)
    # Leaving and moving need the table's lock, held here: nobody leaves while this looks.
    dealt = [s["seat_id"] for s in hand.seats if s.get("dealt")]
    gone = sorted(
        Seat.objects.filter(pk__in=dealt, left_at__isnull=False).values_list(
            "player__name", flat=True
        )
    )
    if gone:
        raise Conflict(
            "player_left",
            f"{', '.join(gone)} left the table after this hand was dealt, with what it paid "
            "them: its actions can no longer be voided. Ask the organiser to correct it.",
            details={"players": gone},
        )
    reason = reason[:200]
    seq, digest = chain.chain_append(
        hand=hand, kind="void", fields={"voids": last.seq, "reason": reason}
    )
    ActionVoid.objects.create(
        action=last,
        reason=reason,
        voided_by=by.user if by and by.user_id else None,
        seq=seq,
        hash=digest,
    )
    for transfer in last.transfers.exclude(kind=Transfer.Kind.REVERSAL).filter(
        reversed_by__isnull=True
    ):
        transfer_reverse(transfer=transfer, by=by, memo=f"void of action {last.seq}: {reason}")
    fields = ["next_seq", "chain_head"]  # chain_append moved both on
    if hand.status == Hand.Status.SETTLED:
        floor_rules().award_withdraw(
            hand.pk
        )  # the award undone with the settlement; asked again if due
        winners = _winners(hand)
        if winners:
            sql.run_batch([won_statement(day_id=table.day_id, player_ids=winners, delta=-1)])
        hand.status = Hand.Status.IN_PROGRESS
        hand.result = None
        hand.settled_at = None
        fields += ["status", "result", "settled_at"]
        table.button = hand.dealer_seat
        table.shuffle_next = hand.shuffle_before
        table.carried_seat = None
        table.save(update_fields=["button", "shuffle_next", "carried_seat"])
    hand.save(update_fields=fields)
    versions.table_changed(table.pk, standings="status" in fields)  # reopened: the standings
    audit_record(
        by=by,
        event_id=hand.table.day.event_id,
        verb=Verb.HAND_VOID,
        subject=hand,
        day=hand.table.day_id,
        data={
            "seq": last.seq,
            "action": last.action,
            "reason": reason,
            **({"at_table": at_table.reason} if at_table is not None else {}),
        },
    )
    return hand, hand_state(hand)
