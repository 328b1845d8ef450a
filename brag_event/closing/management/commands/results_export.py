"""python manage.py results_export EVENT [--file PATH] — an event's results exchange file
(brag-results/1, docs/results-exchange.md) to PATH or standard output. EVENT: its name, id or
uid. Exits 1, saying why, when the event has not finished."""

from __future__ import annotations

import contextlib
import json
import uuid
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from brag_event.closing.exchange.document import event_results_document
from brag_event.core.errors import ServiceError
from brag_event.events.models import Event


def event_named(key: str) -> Event:
    """The event whose id, uid or name is ``key``."""
    found = Event.objects.filter(name=key)
    if key.isascii() and key.isdigit():
        found = Event.objects.filter(pk=int(key))
    else:
        with contextlib.suppress(ValueError):  # not a uid: the name
            found = Event.objects.filter(uid=uuid.UUID(key))
    event = found.first()
    if event is None:
        raise CommandError(f"No event {key!r}.")
    return event


class Command(BaseCommand):
    help = "Write an event's results exchange file (JSON, brag-results/1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="the event's name, id or uid")
        parser.add_argument("--file", help="where to write it (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_named(options["event"])
        try:
            document = event_results_document(event)
        except ServiceError as err:
            raise CommandError(err.message) from None
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        if options["file"]:
            Path(options["file"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
