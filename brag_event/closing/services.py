"""Closing a day: out of play at once, then every stack back to its player's balance, a ledger
audit, a standings snapshot, the next day's qualifiers (chosen only among the players of the day:
``players.qualify``), and closed.

``day_close_request`` takes the day out of play (open → closing) if every table is idle, or
refuses naming the tables; ``day_close_run`` does the rest, one run at a time per close, every
step safe to run again, the last step in one snapshot. A day is closed exactly when its close is
done (docs/architecture.md, "The day close").
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Busy, ServiceError
from brag_event.core.transactions import (
    advisory_lock,
    advisory_lock_held,
    consistent_snapshot,
    retrying,
    service_transaction,
)
from brag_event.events.models import Day, DayClose
from brag_event.events.signals import day_closed
from brag_event.events.states import day_for_change
from brag_event.floor.models import AwardConfirmation, CarriedSplit
from brag_event.floor.services import carried_pots_share
from brag_event.hands.models import Hand
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import LedgerCheck
from brag_event.notify.services import notice_result
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.standings.results import close_standings
from brag_event.tables import versions
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_leave
from brag_event.tables.shifts import shifts_end_at_close

from .count import count_refusal, count_report, count_state
from .record import close_request_record
from .signals import day_close_requested
from .standings import standings_chain


def _take_out_of_play(day: Day) -> None:
    """Open → closing, the day's row locked by the caller: refused, with the tables named, while
    a hand is in play (the hand starts and voids that could make one hold the row shared)."""
    live = sorted(
        Hand.objects.filter(table__day=day, status=Hand.Status.IN_PROGRESS).values_list(
            "table__number", flat=True
        )
    )
    if live:
        raise ServiceError(
            "hands_in_play",
            f"Day {day.number} stays open: a hand is still in play at table "
            + ", ".join(str(n) for n in live)
            + ". Finish it (or void it), then close the day again.",
            details={"tables": live},
        )
    waiting = sorted(
        AwardConfirmation.objects.filter(
            hand__table__day=day, status=AwardConfirmation.Status.WAITING
        ).values_list("table__number", flat=True)
    )
    if waiting:
        raise ServiceError(
            "award_unconfirmed",
            f"Day {day.number} stays open: a large pot at table "
            + ", ".join(str(n) for n in waiting)
            + " waits for a second member of staff. Confirm it on the floor board, then close "
            "the day again.",
            details={"tables": waiting},
        )
    day.status = Day.Status.CLOSING
    day.save(update_fields=["status"])
    # Nobody deals on a day out of play: the shifts still open end here.
    shifts_end_at_close(day_id=day.pk, by=None)
    # Every table shows its day's status.
    versions.event_changed(day.event_id, tables=True)


@service_transaction
def day_close_request(*, day: Day, by: Actor | None) -> DayClose:
    """Ask for the day to be closed: out of play now, the rest by the task queued when this
    commits. Asking again changes nothing once the close is done; otherwise (it failed, or its
    run died with its worker) it is queued again and carries on where it stopped."""
    day = day_for_change(day.pk)
    if day.status == Day.Status.SCHEDULED:
        raise ServiceError(
            "day_not_open",
            f"Day {day.number} has not opened yet: there is nothing to close.",
            details={"day": day.number, "status": day.status},
        )
    # The close's row is locked before the event's (``_take_out_of_play`` bumps its version):
    # the order of the close's own run (``_claim``, ``_progress``, ``day_close_fail``: the close,
    # then the event). The other way round deadlocks with a run of a failed close asked again.
    close, created = DayClose.objects.select_for_update(no_key=True).get_or_create(
        day=day, defaults={"requested_by": by.user if by and by.user_id else None}
    )
    if close.status == DayClose.Status.DONE:
        return close  # the day is closed: never open here
    # The end-of-day count (closing.count): the day leaves play and the close waits for it.
    # Asked again while it still waits: refused, the tables named.
    waiting = None
    moving = created or close.status == DayClose.Status.COUNTING
    if moving:
        state = count_state(day)
        waiting = count_refusal(state)
        if waiting is not None and not created:
            raise waiting
    if day.status == Day.Status.OPEN:
        _take_out_of_play(day)
    if moving:
        # On the day's own chain: whether the count is required (what later requests go by)
        # and the tables seated now, which the audit holds a close that went ahead to.
        close_request_record(day=day, count=state.required, queued=waiting is None, by=by)
    if waiting is not None:
        close.status = DayClose.Status.COUNTING
        close.step = "waiting for the count"
        close.save(update_fields=["status", "step"])
        versions.event_changed(day.event_id)
        audit_record(
            by=by,
            verb=Verb.DAY_CLOSE_REQUESTED,
            subject=day,
            data={"again": False, "count": True},
            event_id=day.event_id,
        )
        return close
    if close.status == DayClose.Status.COUNTING:
        close.status = DayClose.Status.QUEUED
        close.step = "queued"
        close.save(update_fields=["status", "step"])
    if close.status == DayClose.Status.FAILED:
        close.status = DayClose.Status.QUEUED
        close.progress = 0
        close.step = "queued again"
        close.save(update_fields=["status", "progress", "step"])
    versions.event_changed(day.event_id)  # the dashboard shows the close
    audit_record(
        by=by,
        verb=Verb.DAY_CLOSE_REQUESTED,
        subject=day,
        data={"again": not created},
        event_id=day.event_id,
    )
    # Queued once the request commits, by the task's module (``tasks.queue_close``): the task's
    # module imports this one, not the reverse.
    close_id = close.pk
    transaction.on_commit(lambda: day_close_requested.send(sender=DayClose, close_id=close_id))
    return close


RUN_LOCK = "events.day_close"  # the advisory lock of a close's run
# A close queued this long ago and not running is sent to the job queue again: its job may have
# been lost with the queue (a Redis restarted without its data). A second job is harmless.
REDISPATCH_AFTER = timedelta(minutes=2)


def day_close_dispatched(*, close_id: int, error: str = "") -> None:
    """Record whether the close's job reached the job queue (``error``: why not). Written only
    when the close's row is free: a run under way holds it, and needs no record."""
    with transaction.atomic():
        row = (
            DayClose.objects.select_for_update(no_key=True, skip_locked=True)
            .filter(pk=close_id)
            .exclude(status=DayClose.Status.DONE)
            .only("pk")
            .first()
        )
        if row is None:
            return
        if error:
            DayClose.objects.filter(pk=close_id).update(queue_error=error[:200])
        else:
            DayClose.objects.filter(pk=close_id).update(
                dispatched_at=timezone.now(), queue_error=""
            )


def day_closes_waiting(*, day: Day | None = None) -> list[int]:
    """The closes (of ``day``, or all) whose job must be sent to the job queue again: never
    sent, refused by the queue, or queued long ago and neither running nor done (a job lost
    with the queue's data). A close whose run is under way is never among them."""
    closes = DayClose.objects.filter(status__in=(DayClose.Status.QUEUED, DayClose.Status.RUNNING))
    if day is not None:
        closes = closes.filter(day=day)
    stale = timezone.now() - REDISPATCH_AFTER
    out = []
    for close in closes.only("pk", "status", "dispatched_at", "queue_error"):
        lost = close.dispatched_at is None or bool(close.queue_error)
        if not lost and close.dispatched_at is not None and close.dispatched_at < stale:
            lost = True
        if lost and not advisory_lock_held(RUN_LOCK, close.pk):
            out.append(close.pk)
    return out


def _progress(close: DayClose, percent: int, step: str, **fields: Any) -> None:
    """Record progress in a transaction of its own, so the organiser's page sees it now."""
    with transaction.atomic():
        DayClose.objects.filter(pk=close.pk).update(progress=percent, step=step, **fields)
        versions.event_changed(close.day.event_id)


def day_close_run(*, close_id: int) -> DayClose:
    """The task's body. Safe to run again at any point, and never twice at once. A ``Busy``
    (the database gave up on a step again and again) leaves the close as it is, for the task
    to run again later."""
    # The lock's name (and the task's) are those the close had in ``events``: a run started by
    # the older code and one started now still exclude each other.
    with advisory_lock(RUN_LOCK, close_id):
        close = retrying(lambda: _claim(close_id))
        if close.status not in (DayClose.Status.DONE, DayClose.Status.COUNTING):
            try:
                close = _run(close)
            except Busy:
                raise
            except ServiceError as err:
                close = day_close_fail(close_id=close_id, error=err)
            else:
                # After the close: listeners (the integrity monitor) queue their work on commit.
                day_closed.send(sender=Day, day=close.day)
        return close


def day_close_fail(*, close_id: int, error: ServiceError) -> DayClose:
    """Mark the close failed with the refusal in words (a failure never overwrites a close that
    is done). The day stays as it is — open if it never left play, else closing — and asking
    again queues the close again."""
    step = error.message if len(error.message) <= 120 else error.message[:119] + "…"
    with transaction.atomic():
        DayClose.objects.filter(pk=close_id).exclude(status=DayClose.Status.DONE).update(
            status=DayClose.Status.FAILED,
            step=step,  # the whole message is in the report
            report={"error": error.to_dict()},
            finished_at=timezone.now(),
        )
        close = DayClose.objects.select_related("day").get(pk=close_id)
        if error.code == "audit_failed":  # a failed audit is kept for the dashboard too
            lines = error.details.get("audit") if isinstance(error.details, dict) else None
            LedgerCheck.objects.create(event_id=close.day.event_id, ok=False, lines=lines or [])
        versions.event_changed(close.day.event_id)
    return close


def _claim(close_id: int) -> DayClose:
    with transaction.atomic():
        close = (
            DayClose.objects.select_for_update(no_key=True, of=("self",))
            .select_related("day__event")
            .get(pk=close_id)
        )
        if close.status == DayClose.Status.COUNTING:
            return close  # its count is not done: the request queues it again once it is
        if close.status == DayClose.Status.DONE:
            # A run that died between the close's commit and its announcement (``_announce``).
            versions.event_changed(close.day.event_id, tables=True)
            return close
        close.status = DayClose.Status.RUNNING
        close.runs += 1
        close.started_at = close.started_at or timezone.now()
        close.save(update_fields=["status", "runs", "started_at"])
        versions.event_changed(close.day.event_id)
    return close


def _run(close: DayClose) -> DayClose:
    day = close.day
    # 1. Out of play. The request did it; a close queued by an older version may find the day
    #    still open.
    _progress(close, 5, "stopping new hands")
    retrying(lambda: _out_of_play(day.pk))
    # 2. Every stack back to its player's balance, one seat at a time (each is a service).
    #    Nobody can sit down on a closing day, so the seats listed here are all there will be.
    seats = list(Seat.objects.filter(table__day=day, left_at__isnull=True).order_by("pk"))
    for index, seat in enumerate(seats):
        try:
            seat_leave(seat=seat, by=None)
        except ServiceError as err:
            # Another run of the same close (one that died half-way) got there first.
            if err.code != "not_seated":
                raise
        _progress(close, 10 + int(60 * (index + 1) / max(len(seats), 1)), "returning stacks")
    # 2b. The pots still carried are shared by the players of the hands that carried them,
    #     to their balances.
    retrying(lambda: carried_pots_share(day=day.pk))
    # 3. The audit, the snapshot, the qualifiers, and closed: all or nothing.
    _progress(close, 75, "auditing the ledger, standings and qualification")
    done = retrying(lambda: _finish(close.pk, day.pk, seats_returned=len(seats)))
    _announce(day.event_id)
    return done


def _announce(event_id: int) -> None:
    """Every table shows its day's status, the dashboard the close, the standings' "today" may
    move on: the event's and its tables' versions, bumped in a transaction of their own once
    the close is committed (see ``_finish`` for why not inside it). A reader between the two
    commits keeps the closed day under the version before: an answer newer than its version,
    never older (``tables.versions``)."""
    retrying(lambda: _bump(event_id))


def _bump(event_id: int) -> None:
    with transaction.atomic():
        versions.event_changed(event_id, tables=True)


def _out_of_play(day_id: int) -> None:
    with transaction.atomic():
        day = day_for_change(day_id)
        if day.status == Day.Status.OPEN:
            _take_out_of_play(day)
        elif day.status == Day.Status.SCHEDULED:
            raise ServiceError(
                "day_not_open",
                f"Day {day.number} has not opened yet: there is nothing to close.",
                details={"day": day.number, "status": day.status},
            )


def _finish(close_id: int, day_id: int, *, seats_returned: int) -> DayClose:
    """One transaction reading one snapshot: the ledger audit sees the ledger at one moment
    (money issued meanwhile is either wholly in it or wholly not), and the day becomes closed
    only together with its snapshot, its qualifiers and the close marked done.

    It writes no row that the cashier or the tablets write: not the event's version row, which
    every issue of money bumps (and the tables' rows, which a seating of the next day bumps). A
    row changed by another transaction after the snapshot cannot be written in it — PostgreSQL
    gives up with a serialization failure — so bumping the event's version here made every
    issue committed during the audit overtake the close, every retry too, until it gave up
    ``busy`` with the day left closing (issue 29). The bump follows the commit (``_announce``);
    a close found done bumps again (``_claim``), so one whose worker died in between still
    moves every reader on."""
    with consistent_snapshot():
        day = day_for_change(day_id)
        close = DayClose.objects.select_for_update(no_key=True).get(pk=close_id)
        if close.status == DayClose.Status.DONE:
            return close
        _refuse_unless_empty(day)
        event = day.event
        # The standings the close takes (RULES §4b): the day's order, its cut made among the
        # players of its field who played that day, every mark — kept as taken, and chained
        # onto the day's own record before its root is computed, so the root covers them. Only
        # the day's own field can qualify: a player out at an earlier cut comes back only by an
        # organiser's recorded decision (players.qualify.player_requalify).
        rows, cut = close_standings(day)
        following = cut.following
        qualified = cut.qualified
        for row in rows:
            StandingSnapshot.objects.get_or_create(
                day=day,
                player_id=row["player"],
                defaults={
                    "rank": row["rank"] or 0,  # 0: disqualified, outside the ranking
                    "total": row["total"],
                    "change": row["change"],
                    "hands_played": row["hands_played"],
                    "hands_won": row["hands_won"],
                    "qualified": row["player"] in qualified,
                    "position": row["position"],
                    "mark": row["mark"],
                    "out_after": row["out_after"],
                },
            )
        if following is not None:
            for player_id, reason in qualified.items():
                Qualification.objects.get_or_create(
                    day=following, player_id=player_id, defaults={"reason": reason}
                )
        # Each player who asked to hear their result is told it once the close commits.
        players = {p.pk: p for p in Player.objects.filter(pk__in=[r["player"] for r in rows])}
        for row in rows:
            notice_result(
                player=players[row["player"]],
                day=day,
                rank=row["rank"] or 0,
                qualified=row["player"] in qualified,
                following=following,
            )
        standings_chain(day=day, close=close)
        audit = ledger_audit(event=event)
        if not audit.ok:
            raise ServiceError(
                "audit_failed",
                f"The ledger audit failed: day {day.number} stays closing, with nothing "
                "snapshotted or qualified. Correct the ledger, then close again.",
                details={"audit": audit.lines()},
            )
        # The day's record: one root over its hands' chains and its own chain (recomputed by
        # the audit above, which found every record intact — the standings entry among them),
        # published with the close. A ruling chained onto the day after this snapshot moved
        # the day's row: the lock above failed to serialize, and the close ran again
        # (hands.chain.day_chain_append).
        day.record_root, record_hands = audit.roots[day.pk]
        if audit.money is not None:  # brag-day/3: the money record as it stands now
            day.record_money_seq, day.record_money_head = audit.money.seq, audit.money.head
        # The close's audit is the event's latest: the dashboard shows it like any other.
        LedgerCheck.objects.create(event=event, ok=True, lines=audit.lines())
        report = {
            "seats_returned": seats_returned,
            "players": len(rows),
            "qualified": len(qualified),
            "next_day": following.number if following else None,
            "rule": day.qualify_rule,
            "missed": {str(k): v for k, v in cut.missed.items()},
            "audit_ok": True,
            "record_root": day.record_root,
            "record_hands": record_hands,
            "record_day_entries": audit.day_entries.get(day.pk, 0),
            "carried_pots": list(
                day.tables.filter(carried_pot__gt=0).values("number", "carried_pot")
            ),
            # The end-of-day count: every table's counts, differences and rulings, or the
            # organiser's waiver (closing.count).
            "count": count_report(day),
            "carried_splits": [
                {"table": s.table.number, "hand": s.hand.number if s.hand else None}
                | {"amount": s.amount, "shares": s.shares}
                for s in CarriedSplit.objects.filter(day=day)
                .select_related("table", "hand")
                .order_by("table_id")
            ],
        }
        day.status = Day.Status.CLOSED
        day.save(update_fields=["status", "record_root", "record_money_seq", "record_money_head"])
        close.status = DayClose.Status.DONE
        close.progress = 100
        close.step = "done"
        close.report = report
        close.finished_at = timezone.now()
        close.save(update_fields=["status", "progress", "step", "report", "finished_at"])
        audit_record(
            by=None,
            verb=Verb.DAY_CLOSED,
            subject=day,
            data={k: report[k] for k in ("seats_returned", "qualified", "audit_ok", "record_root")},
            event_id=day.event_id,
        )
    return close


def _refuse_unless_empty(day: Day) -> None:
    """A closed day never keeps a live hand or a seated player. Nothing can start or sit down
    on a closing day, and the close has just returned every seat; if anything is left anyway
    (a bug, a hand-made row), the day stays closing and the close fails, naming the tables."""
    tables = set(
        Seat.objects.filter(table__day=day, left_at__isnull=True).values_list(
            "table__number", flat=True
        )
    ) | set(
        Hand.objects.filter(table__day=day, status=Hand.Status.IN_PROGRESS).values_list(
            "table__number", flat=True
        )
    )
    if tables:
        named = ", ".join(str(n) for n in sorted(tables))
        raise ServiceError(
            "day_not_empty",
            f"Day {day.number} stays closing: table {named} still has a player seated or a "
            "hand in play. Clear it, then close again.",
            details={"tables": sorted(tables)},
        )
