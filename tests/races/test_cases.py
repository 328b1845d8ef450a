"""Each case of issue 14, forced to happen every time (``interleave``): the interleaving in which
two services used to deadlock or leave a state nothing could undo. Each of these failed on the
code before the fix; now every run ends without a raw error and with the invariants intact."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.closing.services import day_close_request, day_close_run
from brag_event.events.models import Day, DayClose
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_start, hand_void_last_action
from brag_event.players.imports import players_import_confirm, players_import_preview
from brag_event.players.models import Qualification
from brag_event.players.services import player_issue_money
from brag_event.tables.models import Seat, Table
from brag_event.tables.seating import balance_apply, balance_proposals, seat_move
from brag_event.tables.services import seat_buy_in, seat_leave

from .floor import SETTLING, Floor, act, floor, one_to_settle, problems, settled
from .harness import Outcome, crashes, interleave

# slow: races on PostgreSQL
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TABLE_LOCK = r'FROM "tables_table".* FOR (NO KEY )?UPDATE'
PLAYER_LOCK = r'FROM "players_player".* FOR (NO KEY )?UPDATE'


def check(f: Floor, outcomes: list[Outcome], seen: str) -> None:
    assert not crashes(outcomes), "a raw error escaped a service:\n" + "\n".join(crashes(outcomes))
    found = problems(f.event)
    assert not found, "\n".join(found) + f"\n(outcomes {outcomes}, second job {seen})"


def leave(f: Floor, name: str) -> Any:
    seat_id = f.seat(name).pk
    return lambda: seat_leave(seat=Seat.objects.get(pk=seat_id), by=None).pk


def start(table: Table) -> Any:
    return lambda: hand_start(table=table.pk, by=None).number


def settle(hand: Hand) -> Any:
    return lambda: act(hand.pk, **SETTLING).status


def close(f: Floor) -> Any:
    return lambda: day_close_request(day=Day.objects.get(pk=f.day.pk), by=None).pk


# --------------------------------------------------------------------------- deadlocks


def test_a_player_leaving_while_the_dealer_starts_the_next_hand() -> None:
    """Leave used to lock the seat, then the table; the hand start the table, then the seats."""
    f = floor()
    outcomes, seen = interleave(leave(f, "Chris"), start(f.t1), after=1)
    check(f, outcomes, seen)
    assert outcomes[0].kind == "ok" and outcomes[1].kind == "ok", outcomes
    dealt = Hand.objects.get(table=f.t1).seats
    assert "Chris" not in [s["player"] for s in dealt]  # the hand was dealt after the leave


def test_a_seat_move_while_the_source_table_settles_a_hand() -> None:
    """The move held the tables and wanted the winner's seat; the settling action held that
    seat and wanted the table."""
    f = floor()
    hand = one_to_settle(f)  # Chris is about to win it
    move = seat_move_job(f, "Chris", f.t2, 3)
    outcomes, seen = interleave(move, settle(hand), after=TABLE_LOCK)
    check(f, outcomes, seen)
    assert outcomes[1].value == Hand.Status.SETTLED, outcomes


def test_balancing_while_the_source_table_settles_a_hand() -> None:
    f = floor()
    hand = one_to_settle(f)  # Chris, in table 1's highest seat, is about to win it
    assert f.t2  # three players at table 1, one at table 2
    proposals = balance_proposals(day=f.day)
    proposal = next(p for p in proposals if p["kind"] == "move")
    assert [m["name"] for m in proposal["moves"]] == ["Chris"]
    day_id = f.day.pk
    outcomes, seen = interleave(
        lambda: balance_apply(day=Day.objects.get(pk=day_id), proposal_id=proposal["id"], by=None),
        settle(hand),
        after=TABLE_LOCK,
    )
    check(f, outcomes, seen)
    assert outcomes[1].value == Hand.Status.SETTLED, outcomes


def seat_move_job(f: Floor, name: str, to: Table, number: int) -> Any:
    seat_id = f.seat(name).pk
    return lambda: (
        seat_move(
            seat=Seat.objects.get(pk=seat_id),
            to_table=Table.objects.get(pk=to.pk),
            to_seat=number,
            by=None,
        ).pk
    )


def test_a_seat_move_against_a_buy_in_of_the_same_player() -> None:
    """Tables then player (the move), against player then table (the buy-in)."""
    f = floor()
    chris = f.player("Chris")
    t2 = f.t2.pk

    def buy() -> int:
        return seat_buy_in(
            table=Table.objects.get(pk=t2), seat_number=4, player=chris, amount=200, by=None
        ).pk

    outcomes, seen = interleave(buy, seat_move_job(f, "Chris", f.t2, 3), after=PLAYER_LOCK)
    check(f, outcomes, seen)
    assert outcomes[0].value == "already_seated", outcomes
    assert Seat.objects.filter(player=chris, left_at__isnull=True).count() == 1


def test_a_failed_close_asked_again_against_its_redelivered_run() -> None:
    f = floor()
    failed = DayClose.objects.create(day=f.day, status=DayClose.Status.FAILED, runs=1)
    day_id = f.day.pk
    outcomes, seen = interleave(
        lambda: day_close_request(day=Day.objects.get(pk=day_id), by=None).pk,
        lambda: day_close_run(close_id=failed.pk).status,
        after=r'FROM "events_day".* FOR (NO KEY )?UPDATE',
    )
    check(f, outcomes, seen)
    failed.refresh_from_db()
    assert failed.status == DayClose.Status.DONE


def test_two_imports_with_overlapping_names_in_opposite_orders() -> None:
    f = floor()
    event_id = f.event.pk

    def load(names: list[str]) -> Any:
        def job() -> int:
            from brag_event.events.models import Event

            text = "name,starting_money\n" + "".join(f"{n},100\n" for n in names)
            event = Event.objects.get(pk=event_id)
            batch = players_import_preview(event=event, data=text.encode(), by=None)
            return len(players_import_confirm(batch=batch, by=None))

        return job

    names = ["Xavier", "Yvonne", "Zoe", "Walter"]
    outcomes, seen = interleave(
        load(names), load(names[::-1]), after=r'INSERT INTO "players_player"'
    )
    check(f, outcomes, seen)
    # One confirmation registers all four; the other, previewed before, is refused whole.
    assert sorted((o.kind, o.value) for o in outcomes) == [
        ("ok", 4),
        ("refused", "import_stale"),
    ], outcomes


# ------------------------------------------------------------------ impossible states


def test_a_hand_started_while_the_day_closes() -> None:
    """It used to start after the close had looked for live hands: live on a closed day."""
    f = floor()
    outcomes, seen = interleave(start(f.t1), close(f), after=TABLE_LOCK)
    check(f, outcomes, seen)
    assert outcomes[0].kind == "ok" and outcomes[1].value == "hands_in_play", outcomes
    assert Day.objects.get(pk=f.day.pk).status == "open"  # play goes on


def test_a_buy_in_while_the_day_closes() -> None:
    """It used to sit down after the close had listed the seats: seated on a closed day."""
    f = floor()
    gina = f.player("Gina")

    def buy() -> int:
        return seat_buy_in(
            table=Table.objects.get(pk=f.t1.pk), seat_number=5, player=gina, amount=200, by=None
        ).pk

    outcomes, seen = interleave(buy, close(f), after=TABLE_LOCK)
    check(f, outcomes, seen)
    assert outcomes[0].kind == "ok", outcomes
    gina.refresh_from_db()
    assert Day.objects.get(pk=f.day.pk).status == "closed"
    assert gina.balance == 1000 - 10  # seated, then her stack returned by the close: fee paid


def test_a_close_whose_audit_runs_while_money_is_issued() -> None:
    """The audit's queries used to see the ledger at different moments ("balance cached 20,
    ledger 19") and fail the close half-way."""
    f = floor()
    settled(f)  # all three play day 1 (only a day's players can qualify)
    andy = f.player("Andy")
    outcomes, seen = interleave(
        close(f),
        lambda: player_issue_money(player=andy, amount=7, by=None).pk,
        # Between the audit's set-based statements: the transfers' facts, then the balances
        # (``ledger.audit.transfer_facts``, ``balance_facts``).
        after=r"^SELECT tr\.id, tr\.kind, tr\.amount",
    )
    check(f, outcomes, seen)
    assert seen == "done"
    close_row = DayClose.objects.get(day=f.day)
    assert close_row.status == DayClose.Status.DONE and close_row.runs == 1
    assert Qualification.objects.filter(day__event=f.event, day__number=2).count() == 3


@pytest.mark.django_db(transaction=False)
def test_a_close_whose_run_died_is_queued_again_by_asking_again(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Its first statement deadlocked after the request committed: queued, 0 runs. Asking again
    used to return the same queued close without queuing it."""
    f = floor()
    with django_capture_on_commit_callbacks(execute=False) as lost:
        first = day_close_request(day=f.day, by=None)  # the task is lost with its worker
    assert len(lost) == 1 and DayClose.objects.get(pk=first.pk).runs == 0
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = day_close_request(day=Day.objects.get(pk=f.day.pk), by=None)
    # The close's task, queued once (the integrity monitor's run after the close comes after it).
    assert again.pk == first.pk
    assert sum(c.__qualname__.startswith("day_close_request.") for c in queued) == 1
    done = DayClose.objects.get(pk=first.pk)
    assert done.status == DayClose.Status.DONE and done.runs == 1
    assert not problems(f.event)


def test_undoing_the_settling_action_after_the_winner_has_left() -> None:
    """One after the other, no race: the hand used to reopen with a dealt seat that had gone,
    and the next action (or the undo itself) failed on ``seat_stack_gte_0``."""
    f = floor()
    hand = settled(f)  # Chris won it
    seat_leave(seat=f.seat("Chris"), by=None)
    with pytest.raises(Exception) as refused:
        hand_void_last_action(hand=hand, reason="wrong winner", by=None)
    assert getattr(refused.value, "code", None) == "player_left", refused.value
    assert "Chris" in str(refused.value)
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.SETTLED
    assert not problems(f.event)
