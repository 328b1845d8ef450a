"""Seed the API benchmark's database through the services: ``python -m bench.api_seed``.

Run by ``bench.api`` in a subprocess with ``DATABASE_URL`` pointing at the (migrated) benchmark
database. Creates the FLASH event, ``--tables`` tables on day 1 with ``--players`` players each
bought in at the day's table maximum, one dealer per table (assigned to that table), a device
token per dealer and a session of the organiser. Writes one JSON document to stdout for the
benchmark to read (it holds the token keys and the session: the benchmark never prints it).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bench.common import django_from_environment

STARTING_MONEY = 100_000


def seed(tables: int, players: int, first: int = 1) -> dict[str, Any]:
    """Tables ``first`` to ``tables`` (the event and its organiser are created with table 1,
    found again for later tables: ``make bench-event`` adds tables from one multiple to the
    next)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.utils import timezone

    from brag_event.api.models import DeviceToken, token_hash
    from brag_event.core.actors import Actor
    from brag_event.events.models import Event
    from brag_event.events.services import day_open, event_create_flash
    from brag_event.players.services import player_register
    from brag_event.tables.services import seat_buy_in, table_create

    user_model = get_user_model()
    out: dict[str, Any] = {"tables": []}
    with transaction.atomic():
        dealers = Group.objects.get_or_create(name="dealer")[0]
        organisers = Group.objects.get_or_create(name="organiser")[0]
        if first == 1:
            organiser = user_model.objects.create(username="bench-organiser", is_staff=True)
            organiser.groups.add(organisers)
            by = Actor(organiser, "bench seed")
            event = event_create_flash(
                name="BENCH", currency="MB", start=timezone.localdate(), by=by
            )
            day = day_open(day=event.days.get(number=1), by=by)
        else:
            organiser = user_model.objects.get(username="bench-organiser")
            by = Actor(organiser, "bench seed")
            event = Event.objects.get(name="BENCH")
            day = event.days.get(number=1)
        out.update(
            event=event.pk,
            day=day.pk,
            players=players,
            ante=day.ante,
            table_min=day.table_min,
            table_max=day.table_max,
            starting_money=STARTING_MONEY,
        )
        for number in range(first, tables + 1):
            table = table_create(day=day, number=number, by=by)
            dealer = user_model.objects.create(username=f"bench-dealer-{number}")
            dealer.groups.add(dealers)
            table.dealers.add(dealer)
            for seat in range(1, players + 1):
                player = player_register(
                    event=event,
                    name=f"Table {number} Player {seat}",
                    starting_money=STARTING_MONEY,
                    by=by,
                )
                seat_buy_in(
                    table=table, seat_number=seat, player=player, amount=day.table_max, by=by
                )
            key = DeviceToken.new_key()
            DeviceToken.objects.create(
                user=dealer,
                name=f"Table {number} tablet",
                key_hash=token_hash(key),
                prefix=key[:6],
                created_by=organiser,
            )
            out["tables"].append({"id": table.pk, "number": number, "token": key})
        out["organiser_session"] = signed_in(organiser)
    return out


def signed_in(user: Any) -> str:
    """The key of a session signed in as ``user`` (what a login would store), for the
    organisers' dashboard of ``make bench-event``."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "brag_event.api.auth.RoleAwareModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.api_seed")
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--first", type=int, default=1, help="add tables from this number on")
    args = parser.parse_args(argv)
    if not django_from_environment("bench.api_seed"):
        return 2
    result = seed(args.tables, args.players, args.first)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
