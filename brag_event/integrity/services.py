"""Running the integrity monitor and keeping its flags; recording refused entries."""

from __future__ import annotations

import time
from collections import Counter
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand

from . import selectors
from .explain import explain, subject_of
from .models import IntegrityFlag, IntegrityRun, RefusedEntry
from .stats import ALPHA, DEALER_KINDS, Report, monitor


def integrity_alpha() -> float:
    return float(getattr(settings, "BRAG_INTEGRITY_ALPHA", ALPHA))


@service_transaction
def integrity_run(
    *,
    event: Event,
    trigger: str = IntegrityRun.Trigger.MANUAL,
    day: Day | None = None,
    by: Actor | None,
) -> IntegrityRun:
    """Run every check over the event's settled hands and keep the run with its flags. A run
    by a person, and any run that raises flags, is written to the audit log."""
    began = time.monotonic()
    fingerprint = selectors.event_fingerprint(event)
    data = selectors.event_data(event)
    alpha = integrity_alpha()
    report = monitor(data.hands, data.dealer_hands, data.dealer_events, alpha=alpha)
    names = selectors.event_labels(event)
    run = IntegrityRun.objects.create(
        event=event,
        trigger=trigger,
        day=day,
        alpha=alpha,
        hands=report.hands,
        fingerprint=fingerprint,
        tests=report.tests,
        overview=_overview(report, names, data.dealer_hands, data.dealer_events),
        requested_by=by.user if by and by.user_id else None,
        seconds=round(time.monotonic() - began, 2),
    )
    flags = []
    for f in report.flags:
        subject, key = subject_of(f, names)
        seen, todo = explain(f, names)
        flags.append(
            IntegrityFlag(
                run=run,
                kind=f.check,
                subject=subject[:200],
                subject_key=key,
                p_value=f.p_value,
                threshold=f.threshold,
                numbers=f.numbers,
                hands=list(f.hands),
                explanation=seen,
                advice=todo,
            )
        )
    IntegrityFlag.objects.bulk_create(flags)
    if flags or trigger == IntegrityRun.Trigger.MANUAL:
        audit_record(
            by=by,
            verb=Verb.INTEGRITY_RUN,
            subject=event,
            data={
                "run": run.pk,
                "trigger": trigger,
                "hands": run.hands,
                "flags": [f"{f.kind}: {f.subject}" for f in flags],
            },
            event_id=event.pk,
        )
    return run


def integrity_check(*, event: Event, by: Actor | None = None) -> IntegrityRun | None:
    """The periodic check: run the monitor only if something changed since the last run (new
    settled hands, voids or refused entries); ``None`` when nothing did."""
    last = selectors.latest_run(event)
    if last is not None and last.fingerprint == selectors.event_fingerprint(event):
        return None
    if not Hand.objects.filter(table__day__event=event).exists():
        return None
    return integrity_run(event=event, trigger=IntegrityRun.Trigger.PERIODIC, by=by)


def _overview(
    report: Report, names: Any, dealer_hands: dict[int, int], events: list[Any]
) -> dict[str, Any]:
    """The figures of every check that the page shows beside the flags."""
    out: dict[str, Any] = {}
    for check in ("cards", "folds", "flows", "dealers"):
        findings = [f for f in report.findings if f.check == check]
        out[check] = {
            "tests": len(findings),
            "threshold": findings[0].threshold if findings else None,
            "smallest_p": min((f.p_value for f in findings), default=None),
            "flags": sum(f.flagged for f in findings),
        }
    out["cards"]["groups"] = [
        {
            "subject": names.of(f.subject[0], f.subject[1]),
            "hands": f.numbers["hands"],
            "p": f.p_value,
            "flagged": f.flagged,
        }
        for f in report.findings
        if f.check == "cards"
    ]
    counts = Counter((e.dealer, e.kind) for e in events)
    out["dealers"]["rows"] = [
        {
            "dealer": names.of("dealer", dealer),
            "hands": hands,
            **{
                kind: {
                    "count": counts[dealer, kind],
                    "per_100": round(100 * counts[dealer, kind] / hands, 2),
                }
                for kind in DEALER_KINDS
            },
        }
        for dealer, hands in sorted(dealer_hands.items(), key=lambda kv: names.of("dealer", kv[0]))
    ]
    return out


# Identical refusals from one device within this time of the previous one are one burst.
BURST_WINDOW = timedelta(seconds=60)


def refusal_record(
    *,
    table_id: int,
    hand_id: int | None,
    seq: int | None,
    action: str,
    code: str,
    status: int,
    message: str,
    by: Actor,
) -> RefusedEntry:
    """Keep a refused entry. Called after the refused request's transaction was rolled back,
    in a transaction of its own: the refusal itself changed nothing.

    The same refusal sent again by the same device (the latest refused entry of that table,
    user and device, identical, its last one within ``BURST_WINDOW``) is counted on that entry
    (``count``, ``last_at``) rather than kept as a row of its own: a client retrying a refused
    entry in a loop grows one row, not the table, and is one mistake for the integrity monitor,
    not thousands (``selectors.event_data`` counts entries, one per burst)."""
    fields = {
        "table_id": table_id,
        "hand_id": hand_id,
        "seq": seq,
        "action": action[:12],
        "code": code[:60],
        "status": status,
        "message": message[:300],
        "user_id": by.user.pk if by.user_id else None,
        "device": by.device[:200],
    }
    now = timezone.now()
    with transaction.atomic():
        latest = (
            RefusedEntry.objects.select_for_update()
            .filter(table_id=table_id, device=fields["device"])
            .filter(Q(user_id=fields["user_id"]) if fields["user_id"] else Q(user__isnull=True))
            .order_by("-id")
            .first()
        )
        if (
            latest is not None
            and all(getattr(latest, k) == v for k, v in fields.items())
            and (latest.last_at or latest.at) >= now - BURST_WINDOW
        ):
            RefusedEntry.objects.filter(pk=latest.pk).update(count=F("count") + 1, last_at=now)
            latest.refresh_from_db(fields=["count", "last_at"])
            return latest
        return RefusedEntry.objects.create(**fields)
