"""python manage.py load_demo [--seed N] [--hands N] [--addr ADDR] — the FLASH demo event,
idempotent."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from brag_event.demo.services import RUN_ADDR, demo_load


class Command(BaseCommand):
    help = (
        "Load demo data: the FLASH event, 24 players, four tables on day 1, staff accounts "
        "(credentials printed) and some hands played. Does nothing if FLASH already exists."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
        parser.add_argument(
            "--hands", type=int, default=36, help="hands to play across the tables (default 36)"
        )
        parser.add_argument(
            "--addr",
            default=RUN_ADDR,
            help=f"the development server's address, for the sign-in links (default {RUN_ADDR})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["hands"] < 0:
            raise CommandError("--hands must not be negative.")
        demo_load(
            seed=options["seed"], hands=options["hands"], stdout=self.stdout, addr=options["addr"]
        )
