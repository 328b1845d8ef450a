"""python manage.py audit_ledger [--event NAME|ID] [--day N] — exits 1 on any mismatch."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from brag_event.core.transactions import consistent_snapshot
from brag_event.events.models import Event
from brag_event.ledger.audit import ledger_audit


class Command(BaseCommand):
    help = "Check that the ledger balances, money is conserved, caches match, hands replay."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", help="event name or id (default: every event)")
        parser.add_argument("--day", type=int, help="only this day's tables and hands")

    def handle(self, *args: Any, **options: Any) -> None:
        events = Event.objects.all().order_by("pk")
        if options["event"]:
            key = options["event"]
            events = (
                events.filter(pk=int(key))
                if key.isascii() and key.isdigit()
                else events.filter(name=key)
            )
            if not events.exists():
                raise CommandError(f"No event {key!r}.")
        failed = False
        for event in events:
            day = None
            if options["day"] is not None:
                day = event.days.filter(number=options["day"]).first()
                if day is None:
                    raise CommandError(f"{event} has no day {options['day']}.")
            with consistent_snapshot():
                report = ledger_audit(event=event, day=day)
            for line in report.lines():
                self.stdout.write(line)
            failed = failed or not report.ok
        if failed:
            raise SystemExit(1)
