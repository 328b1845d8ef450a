"""Keeping the result of ledger audits, for the dashboard's alerts.

The periodic check (Celery beat, every few minutes) is incremental: a settled hand that replayed
cleanly is recorded with its fingerprint (``AuditedHand``) and not replayed again while that is
unchanged; the set-based checks run in full every time. ``full=True`` (the organisers' "audit
now") replays everything, as the day close and ``manage.py audit_ledger`` do."""

from __future__ import annotations

from django.utils import timezone

from brag_event.core.transactions import consistent_snapshot
from brag_event.events.models import Event
from brag_event.tables import versions

from .audit import FINGERPRINT, AuditReport, ledger_audit
from .models import AuditedHand, LedgerCheck


def ledger_check_run(*, event: Event, full: bool = False) -> LedgerCheck:
    with consistent_snapshot():
        report = ledger_audit(event=event, replay="all" if full else "changed")
    _remember(report)
    check = LedgerCheck.objects.create(event=event, ok=report.ok, lines=report.lines())
    versions.event_changed(event.pk)  # the dashboard shows the latest audit
    return check


def _remember(report: AuditReport) -> None:
    """Record the fingerprints of the hands that replayed cleanly (one statement per batch)."""
    rows = [
        AuditedHand(hand_id=hand_id, **dict(zip(FINGERPRINT, fingerprint, strict=True)))
        for hand_id, fingerprint in report.replayed_clean.items()
    ]
    for start in range(0, len(rows), 2000):
        AuditedHand.objects.bulk_create(
            rows[start : start + 2000],
            update_conflicts=True,
            unique_fields=["hand"],
            update_fields=[*FINGERPRINT, "audited_at"],
        )


def ledger_check_latest(event: Event) -> LedgerCheck | None:
    return LedgerCheck.objects.filter(event=event).order_by("-at").first()


def ledger_check_if_due(*, event: Event, every_seconds: float) -> LedgerCheck | None:
    """The periodic audit where no Celery beat runs (``make run``: tasks run eagerly, nothing
    schedules them): run the incremental check if the latest audit of the event — periodic,
    "audit now" or a day close's — is older than ``every_seconds``. The organisers' dashboard
    calls it as it refreshes itself."""
    latest = ledger_check_latest(event)
    if latest is not None and (timezone.now() - latest.at).total_seconds() < every_seconds:
        return None
    return ledger_check_run(event=event)
