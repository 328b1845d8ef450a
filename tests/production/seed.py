"""Seed the production run's private database through the services:
``python -m tests.production.seed --tables 4 --players 6``.

Run by the production-run test in a subprocess with ``DATABASE_URL`` pointing at its private,
migrated PostgreSQL. Creates what the API and the organiser's pages cannot: the groups, an
organiser with a password (who then does the rest over HTTP: the seating draw, the dealers, the
tablets' tokens, the day close), one dealer per table, the FLASH event and its registered
players. Prints one JSON document.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from bench.common import django_from_environment

STARTING_MONEY = 2_000


def seed(tables: int, players: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.utils import timezone

    from brag_event.core.actors import Actor
    from brag_event.events.services import day_open, event_create_flash
    from brag_event.players.services import player_register

    user_model = get_user_model()
    password = secrets.token_urlsafe(12)
    with transaction.atomic():
        dealer_group = Group.objects.get_or_create(name="dealer")[0]
        organiser_group = Group.objects.get_or_create(name="organiser")[0]
        organiser = user_model.objects.create_user(
            username="run-organiser", password=password, is_staff=True
        )
        organiser.groups.add(organiser_group)
        by = Actor(organiser, "production run seed")
        # The run tests the close on a real worker, not the count (tests/closing/test_day_count.py).
        event = event_create_flash(
            name="PRODRUN",
            currency="MB",
            start=timezone.localdate(),
            count_at_close=False,
            by=by,
        )
        day = day_open(day=event.days.get(number=1), by=by)
        dealers = []
        for number in range(1, tables + 1):
            dealer = user_model.objects.create(username=f"run-dealer-{number}")
            dealer.groups.add(dealer_group)
            dealers.append(dealer.pk)
        for n in range(1, tables * players + 1):
            player_register(
                event=event, name=f"Player {n:02d}", starting_money=STARTING_MONEY, by=by
            )
    return {
        "event": event.pk,
        "day": day.pk,
        "organiser": {"username": organiser.username, "password": password},
        "dealers": dealers,
        "players": tables * players,
        "seats": players,
        "ante": day.ante,
        "table_max": day.table_max,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.production.seed")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--players", type=int, default=6, help="players per table")
    args = parser.parse_args(argv)
    if not django_from_environment("tests.production.seed"):
        return 2
    sys.stdout.write(json.dumps(seed(args.tables, args.players)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
