"""Closing a day: no new hands, every stack back to its player's balance, a ledger audit, a
standings snapshot, and the next day's qualifiers by the organiser's rule.

``day_close_request`` records the request and queues the Celery task when the transaction
commits; the task runs ``day_close_run``, whose every step is safe to run again (a worker killed
half-way, a task delivered twice): seats already left are not left again, the snapshot and the
qualifications are written with get-or-create, and a close that is done does nothing."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.hands.models import Hand
from brag_event.ledger.audit import ledger_audit
from brag_event.players.models import Qualification, StandingSnapshot
from brag_event.players.selectors import standings
from brag_event.tables import versions
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_leave

from .models import Day, DayClose
from .signals import day_closed


@service_transaction
def day_close_request(*, day: Day, by: Actor | None) -> DayClose:
    """Ask for the day to be closed. Queues the task once the request is committed; asking again
    while it is queued or running, or after it is done, changes nothing; a failed close is
    queued again."""
    day = Day.objects.select_for_update().get(pk=day.pk)
    close, created = DayClose.objects.get_or_create(
        day=day, defaults={"requested_by": by.user if by and by.user_id else None}
    )
    if not created and close.status != DayClose.Status.FAILED:
        return close
    if close.status == DayClose.Status.FAILED:
        close.status = DayClose.Status.QUEUED
        close.progress = 0
        close.step = "queued again"
        close.save(update_fields=["status", "progress", "step"])
    versions.event_changed(day.event_id)  # the dashboard shows the close
    audit_record(by=by, verb="day.close_requested", target=str(day), data={}, event_id=day.event_id)
    from .tasks import day_close_task

    close_id = close.pk
    transaction.on_commit(lambda: day_close_task.delay(close_id))
    return close


def _progress(close: DayClose, percent: int, step: str, **fields: Any) -> None:
    """Record progress in a transaction of its own, so the organiser's page sees it now."""
    with transaction.atomic():
        DayClose.objects.filter(pk=close.pk).update(progress=percent, step=step, **fields)
        versions.event_changed(close.day.event_id)


def day_close_run(*, close_id: int) -> DayClose:
    """The task's body. Safe to run again at any point."""
    with transaction.atomic():
        close = DayClose.objects.select_for_update().select_related("day__event").get(pk=close_id)
        if close.status == DayClose.Status.DONE:
            return close
        close.status = DayClose.Status.RUNNING
        close.runs += 1
        close.started_at = close.started_at or timezone.now()
        close.save(update_fields=["status", "runs", "started_at"])
        versions.event_changed(close.day.event_id)
    day = close.day
    try:
        report = _run(close, day)
    except ServiceError as err:
        # A failure never overwrites a close that another run has finished.
        with transaction.atomic():
            DayClose.objects.filter(pk=close.pk).exclude(status=DayClose.Status.DONE).update(
                status=DayClose.Status.FAILED,
                step=err.message,
                report={"error": err.to_dict()},
                finished_at=timezone.now(),
            )
            versions.event_changed(day.event_id)
        return DayClose.objects.get(pk=close.pk)
    with transaction.atomic():
        DayClose.objects.filter(pk=close.pk).update(
            status=DayClose.Status.DONE,
            progress=100,
            step="done",
            report=report,
            finished_at=timezone.now(),
        )
        versions.event_changed(day.event_id)
    audit_record(
        by=None,
        verb="day.closed",
        target=str(day),
        data={k: report[k] for k in ("seats_returned", "qualified", "audit_ok")},
        event_id=day.event_id,
    )
    # After the close: listeners (the integrity monitor) queue their work on commit.
    day_closed.send(sender=Day, day=day)
    return DayClose.objects.get(pk=close.pk)


def _run(close: DayClose, day: Day) -> dict[str, Any]:
    # 1. No new hands. A hand still in play must be finished (or voided) first.
    _progress(close, 5, "stopping new hands")
    with transaction.atomic():
        locked = Day.objects.select_for_update().get(pk=day.pk)
        live = list(
            Hand.objects.filter(table__day=locked, status=Hand.Status.IN_PROGRESS)
            .select_related("table")
            .values_list("table__number", flat=True)
        )
        if live:
            raise ServiceError(
                "hands_in_play",
                "Hands are still in play at table "
                + ", ".join(str(n) for n in sorted(live))
                + ": finish them, then close the day again.",
                details={"tables": sorted(live)},
            )
        if locked.status != Day.Status.CLOSED:
            locked.status = Day.Status.CLOSED
            locked.save(update_fields=["status"])
            # Every table shows its day's status; the standings' "today" may move on.
            versions.event_changed(day.event_id, tables=True)
    # 2. Every stack back to its player's balance (one seat at a time: each is a service).
    seats = list(Seat.objects.filter(table__day=day, left_at__isnull=True).order_by("pk"))
    for index, seat in enumerate(seats):
        try:
            seat_leave(seat=seat, by=None)
        except ServiceError as err:
            # Another run of the same close (a redelivered task) got there first: done already.
            if err.code != "not_seated":
                raise
        _progress(close, 10 + int(60 * (index + 1) / max(len(seats), 1)), "returning stacks")
    # 3. The ledger audit.
    _progress(close, 75, "auditing the ledger")
    audit = ledger_audit(event=day.event)
    if not audit.ok:
        raise ServiceError(
            "audit_failed",
            "The ledger audit failed: nothing was snapshotted or qualified.",
            details={"audit": audit.lines()},
        )
    # 4. Standings snapshot and the next day's qualifiers.
    _progress(close, 85, "standings and qualification")
    rows = standings(day.event, day)
    following = day.event.days.filter(number=day.number + 1).first()
    qualified = _qualifiers(day, following, rows)
    with transaction.atomic():
        for row in rows:
            StandingSnapshot.objects.get_or_create(
                day=day,
                player_id=row["player"],
                defaults={
                    "rank": row["rank"],
                    "total": row["total"],
                    "change": row["change"],
                    "hands_played": row["hands_played"],
                    "hands_won": row["hands_won"],
                    "qualified": row["player"] in qualified,
                },
            )
        if following is not None:
            for player_id, reason in qualified.items():
                Qualification.objects.get_or_create(
                    day=following, player_id=player_id, defaults={"reason": reason}
                )
    return {
        "seats_returned": len(seats),
        "players": len(rows),
        "qualified": len(qualified),
        "next_day": following.number if following else None,
        "rule": day.qualify_rule,
        "audit_ok": True,
        "carried_pots": list(day.tables.filter(carried_pot__gt=0).values("number", "carried_pot")),
    }


def _qualifiers(day: Day, following: Day | None, rows: list[dict[str, Any]]) -> dict[int, str]:
    """Who plays the next day: everyone who can afford its table minimum plus fee, or the top N
    of those (ties at the cut all qualify)."""
    if following is None:
        return {}
    need = following.table_min + following.house_fee
    able = [r for r in rows if r["total"] >= need]
    if day.qualify_rule == "top" and day.qualify_top:
        cut = able[: day.qualify_top]
        if cut:
            last = cut[-1]["total"]
            cut += [r for r in able[day.qualify_top :] if r["total"] == last]
        return {r["player"]: f"top {day.qualify_top} (rank {r['rank']})" for r in cut}
    return {r["player"]: f"can afford {need}" for r in able}
