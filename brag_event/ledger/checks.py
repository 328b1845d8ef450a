"""Keeping the result of ledger audits, for the dashboard's alerts."""

from __future__ import annotations

from brag_event.events.models import Event
from brag_event.tables import versions

from .audit import ledger_audit
from .models import LedgerCheck


def ledger_check_run(*, event: Event) -> LedgerCheck:
    report = ledger_audit(event=event)
    check = LedgerCheck.objects.create(event=event, ok=report.ok, lines=report.lines())
    versions.event_changed(event.pk)  # the dashboard shows the latest audit
    return check


def ledger_check_latest(event: Event) -> LedgerCheck | None:
    return LedgerCheck.objects.filter(event=event).order_by("-at").first()
