"""python manage.py results_import PATH — import a results exchange file (brag-results/1,
docs/results-exchange.md) as a past event. Prints what it made; exits 1 with the refusal in
words (and its code), changing nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from brag_event.closing.exchange.services import document_from_file, event_import_results
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError


class Command(BaseCommand):
    help = "Import a results exchange file (JSON, brag-results/1) as a past event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the results file (.json)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        try:
            data = path.read_bytes()
        except OSError as err:
            raise CommandError(f"{path}: {err.strerror}") from None
        try:
            made = event_import_results(
                document=document_from_file(data),
                by=Actor(None, "manage.py results_import"),
                file_name=path.name,
            )
        except ServiceError as err:
            raise CommandError(f"{err.message} ({err.code})") from None
        self.stdout.write(f"{made.summary} Event id {made.event.pk}.")
