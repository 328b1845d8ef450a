"""Demo data: the FLASH event with players, day 1's tables, staff accounts and some hands played.

Everything goes through the services (``event_create_flash``, ``day_open``, ``player_register``,
``table_create``, ``seat_buy_in``, ``hand_start``, ``hand_apply_action``), so the ledger, the
action logs and the audit log are exactly what real use would leave behind. A seeded random
number generator makes a run repeatable. Running it again when the event exists changes
nothing.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from brag_event.audit.models import AuditEntry, Verb
from brag_event.bots import Casual
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.engine import (
    DECK,
    Card,
    HandState,
)
from brag_event.events.models import Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_apply_action, hand_start
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.services import account_balance, account_house
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Table
from brag_event.tables.services import seat_buy_in, table_create

EVENT_NAME = "FLASH"
CURRENCY = "MB"
RUN_ADDR = "127.0.0.1:8000"  # runserver's default; `make run` passes its RUN_ADDR
PLAYERS = 24
TABLES = 4
STARTING_MONEY = 1_000
STEP_CAP = 200  # actions in one hand before the loader forces it to an end
# The demo's players (brag_event.bots): look, see and fold at the bots' usual chances.
PLAYER = Casual()
DEVICE = "demo loader"

# (username, password, group, is_staff, is_superuser, what they are)
ACCOUNTS: tuple[tuple[str, str, str, bool, bool, str], ...] = (
    ("organiser", "organiser-demo", "organiser", True, True, "organiser (superuser)"),
    ("supervisor", "supervisor-demo", "supervisor", True, False, "supervisor"),
    ("dealer1", "dealer1-demo", "dealer", False, False, "dealer, tables 1-2"),
    ("dealer2", "dealer2-demo", "dealer", False, False, "dealer, tables 3-4"),
)
GROUPS = ("organiser", "supervisor", "dealer")
TABLE_DEALER = {1: "dealer1", 2: "dealer1", 3: "dealer2", 4: "dealer2"}

FIRST_NAMES = (
    "Alice", "Bernard", "Chloe", "Declan", "Eleanor", "Fergus", "Georgia", "Harvey", "Imogen",
    "Jasper", "Kirsty", "Leon", "Maisie", "Nathan", "Olivia", "Patrick", "Rosie", "Samir",
    "Tessa", "Umar", "Violet", "Wesley", "Yasmin", "Zach", "Bethany", "Callum", "Daisy",
    "Ewan", "Freya", "Gareth", "Hannah", "Isaac",
)  # fmt: skip
SURNAMES = (
    "Ashworth", "Bramley", "Carter", "Dawson", "Ellis", "Fletcher", "Griffiths", "Hughes",
    "Iqbal", "Jennings", "Kaur", "Lloyd", "Mitchell", "Nolan", "O'Brien", "Patel", "Quinn",
    "Reynolds", "Shaw", "Thornton", "Underwood", "Vaughan", "Walsh", "Young", "Barker",
    "Chapman", "Doyle", "Foster", "Gallagher", "Holt", "Murray", "Price",
)  # fmt: skip


class Writer(Protocol):
    def write(self, msg: str, /) -> Any: ...


def demo_load(
    *, seed: int = 2026, hands: int = 36, stdout: Writer | None = None, addr: str = RUN_ADDR
) -> dict[str, Any]:
    """Load the demo (all or nothing). Returns a summary; ``loaded`` is False when the event
    already existed and nothing was changed. Raises ``CommandError`` if the ledger audit fails
    (and then nothing is kept). The sign-in addresses printed are on ``addr``, the development
    server's address as runserver takes it ("8001", "0.0.0.0:8000", "[::1]:8000")."""
    out = stdout if stdout is not None else sys.stdout

    def say(line: str = "") -> None:
        out.write(line + "\n")

    if Event.objects.filter(name=EVENT_NAME).exists():
        say(f"The demo is already loaded (an event called {EVENT_NAME!r} exists); nothing changed.")
        _print_credentials(say, kept=set(), addr=addr)
        return {"loaded": False}
    if hands < 0:
        raise CommandError("--hands must not be negative.")

    began = time.monotonic()
    rng = random.Random(seed)  # nosec B311
    with transaction.atomic():
        users, kept = _users()
        organiser = Actor(users["organiser"], DEVICE)
        event = event_create_flash(
            name=EVENT_NAME,
            currency=CURRENCY,
            start=timezone.localdate(),
            starting_money=STARTING_MONEY,
            by=organiser,
        )
        day_open(day=event.days.get(number=1), by=organiser)
        players = _players(event, rng, organiser)
        tables = _tables(event, players, rng, users, organiser)
        say(
            f"Created the {EVENT_NAME} event: {len(players)} players with {STARTING_MONEY} "
            f"{CURRENCY} each, {len(tables)} tables on day 1 with {len(players) // len(tables)} "
            "players each."
        )
        played = _play(tables, hands, rng, users, say)
        report = ledger_audit(event=event)
        for line in report.lines():
            say(line)
        if not report.ok:
            raise CommandError("The ledger audit of the demo data failed; nothing was kept.")
        house = account_balance(account_house(event))

    summary: dict[str, Any] = {
        "loaded": True,
        "event": event.pk,
        "players": len(players),
        "tables": len(tables),
        "hands": played["hands"],
        "actions": played["actions"],
        "carried": played["carried"],
        "forced": played["forced"],
        "skipped": played["skipped"],
        "house": house,
        "seconds": round(time.monotonic() - began, 2),
    }
    say("")
    say(
        f"Demo loaded in {summary['seconds']} s: {summary['players']} players, "
        f"{summary['tables']} tables, {summary['hands']} hands played "
        f"({summary['actions']} actions), {summary['carried']} pots carried forward, "
        f"house takings {house} {CURRENCY}."
    )
    if played["skipped"]:
        say(f"{len(played['skipped'])} hand(s) skipped (see above).")
    _print_credentials(say, kept=kept, addr=addr)
    return summary


# --------------------------------------------------------------------------- setting up


def _users() -> tuple[dict[str, Any], set[str]]:
    """The staff accounts. An account that already exists keeps its password (noted when the
    credentials are printed); its group and flags are made right."""
    user_model = get_user_model()
    groups = {name: Group.objects.get_or_create(name=name)[0] for name in GROUPS}
    users: dict[str, Any] = {}
    kept: set[str] = set()
    for username, password, group, staff, superuser, _ in ACCOUNTS:
        user = user_model.objects.filter(username=username).first()
        if user is None:
            user = user_model(username=username, is_staff=staff, is_superuser=superuser)
            user.set_password(password)
            user.save()
        else:
            kept.add(username)
            if (user.is_staff, user.is_superuser) != (staff, superuser):
                user.is_staff = staff
                user.is_superuser = superuser
                user.save(update_fields=["is_staff", "is_superuser"])
        user.groups.add(groups[group])
        users[username] = user
    return users, kept


def _players(event: Event, rng: random.Random, by: Actor) -> list[Player]:
    firsts = rng.sample(FIRST_NAMES, PLAYERS)
    lasts = rng.sample(SURNAMES, PLAYERS)
    return [
        player_register(event=event, name=f"{first} {last}", starting_money=STARTING_MONEY, by=by)
        for first, last in zip(firsts, lasts, strict=True)
    ]


def _tables(
    event: Event, players: list[Player], rng: random.Random, users: dict[str, Any], by: Actor
) -> list[Table]:
    day = event.days.get(number=1)
    low = -(-day.table_min // 10) * 10  # buy-ins in multiples of 10 within the day's limits
    order = list(players)
    rng.shuffle(order)
    per_table = len(order) // TABLES
    tables: list[Table] = []
    for number in range(1, TABLES + 1):
        table = table_create(day=day, number=number, by=by)
        table.dealers.add(users[TABLE_DEALER[number]])
        chunk = order[(number - 1) * per_table : number * per_table]
        for seat_number, player in enumerate(chunk, start=1):
            amount = rng.randrange(low, day.table_max + 1, 10)
            seat_buy_in(table=table, seat_number=seat_number, player=player, amount=amount, by=by)
        tables.append(table)
    return tables


# --------------------------------------------------------------------------- playing


def _play(
    tables: list[Table], count: int, rng: random.Random, users: dict[str, Any], say: Any
) -> dict[str, Any]:
    played: dict[str, Any] = {"hands": 0, "actions": 0, "carried": 0, "forced": 0, "skipped": []}
    for i in range(count):
        table = tables[i % len(tables)]
        by = Actor(users[TABLE_DEALER[table.number]], f"{DEVICE}, table {table.number}")
        try:
            hand = hand_start(table=table, by=by)
        except ServiceError as err:
            say(f"Skipped a hand at table {table.number}: {err.message}")
            played["skipped"].append({"table": table.number, "code": err.code})
            continue
        actions, carried, forced = _play_hand(hand, rng, by)
        played["hands"] += 1
        played["actions"] += actions
        played["carried"] += carried
        played["forced"] += forced
    return played


def _deal(state: HandState, rng: random.Random) -> dict[int, tuple[Card, ...]]:
    """Three real, distinct cards for every dealt-in seat, from a freshly shuffled deck."""
    deck = list(DECK)
    rng.shuffle(deck)
    return {p.seat: tuple(deck[3 * i : 3 * i + 3]) for i, p in enumerate(state.players)}


def _play_hand(hand: Hand, rng: random.Random, by: Actor) -> tuple[int, int, int]:
    """Play one hand to the end; returns (actions, 1 if the pot was carried, 1 if forced)."""
    state = hand_state(hand)
    cards = _deal(state, rng)
    steps = 0
    while state.outcome is None:
        force = steps >= STEP_CAP
        action = PLAYER.choose(state, cards, rng, force=force).to_dict()
        try:
            hand, _row, state = hand_apply_action(
                hand=hand, action=action, expected_seq=hand.next_seq, by=by
            )
        except ServiceError as err:
            raise CommandError(
                f"{hand}: the services refused {action} ({err.code}: {err.message})"
            ) from err
        steps += 1
    carried = any(p.how == "carried" for p in state.outcome.pots)
    return steps, int(carried), int(steps > STEP_CAP)


# --------------------------------------------------------------------------- output


def server_url(addr: str) -> str:
    """The address a browser on this machine opens for runserver's ``addr`` (a port, or
    host:port): a server listening on every interface (0.0.0.0, ::) is reached on loopback."""
    host, _, port = addr.rpartition(":")
    host = host or "127.0.0.1"
    if host in ("0.0.0.0", "[::]", "::"):  # nosec B104 - read, not bound
        host = "127.0.0.1"
    return f"http://{host}:{port}"


def _print_credentials(say: Any, *, kept: set[str], addr: str) -> None:
    base = server_url(addr)
    say("")
    say("Demo accounts — demo credentials only, never use them on a real server:")
    say(f"  sign in at {base}/organiser/ (the console) or {base}/admin/ (Django's admin)")
    say(f"  {'user':<12}{'password':<18}role")
    for username, password, _group, _staff, _superuser, role in ACCOUNTS:
        note = "  (account existed: password not changed)" if username in kept else ""
        say(f"  {username:<12}{password:<18}{role}{note}")


def demo_remove(*, stdout: Writer | None = None) -> dict[str, Any]:
    """Remove the demo: its event with everything recorded under it (days, tables, players,
    hands, the ledger, the audit entries, the integrity monitor's records), then its staff
    accounts. All or nothing. The event is the demo's only if the demo loader created it (its
    creation's audit entry names the loader), so a real event called FLASH is never touched. An
    account that did anything outside the demo event is kept, with its password removed and
    its login disabled, and said so.

    Why written here rather than left to Django's deletion: the event's records are protected
    (``on_delete=PROTECT``: nothing of a real event may vanish by a click in the admin) and the
    ledger, the hands' actions and the audit log are append-only in the database (triggers).
    This command alone lifts both, for the rows of the demo event only, in one transaction: the
    rows referring to the event are found by following every foreign key backwards until
    nothing new is found, and deleted together (the foreign keys are checked at the commit)."""
    out = stdout if stdout is not None else sys.stdout
    event = (
        Event.objects.filter(
            name=EVENT_NAME,
            pk__in=AuditEntry.objects.filter(verb=Verb.EVENT_CREATE, device=DEVICE).values(
                "event_id"
            ),
        )
        .order_by("pk")
        .first()
    )
    removed: dict[str, int] = {}
    with transaction.atomic():
        if event is not None:
            doomed = _rows_under(Event, {event.pk})
            with _append_only_lifted([m for m in doomed if m._meta.db_table in APPEND_ONLY]):
                for model, ids in doomed.items():
                    for start in range(0, len(ids), 1000):
                        chunk = sorted(ids)[start : start + 1000]
                        model._base_manager.filter(pk__in=chunk)._raw_delete(  # type: ignore[attr-defined]
                            model._base_manager.db
                        )
                    removed[model._meta.label] = len(ids)
            total = sum(removed.values())
            out.write(f"Removed the demo event {EVENT_NAME!r} and {total} records.\n")
        else:
            out.write(f"No demo event ({EVENT_NAME!r} made by the demo loader): none removed.\n")
        user_model = get_user_model()
        for username, *_rest in ACCOUNTS:
            user = user_model.objects.filter(username=username).first()
            if user is None:
                continue
            try:
                with transaction.atomic():
                    user.delete()
                out.write(f"Removed the account {username!r}.\n")
                removed.setdefault("accounts", 0)
                removed["accounts"] += 1
            except ProtectedError:
                user.set_unusable_password()
                user.is_active = False
                user.save(update_fields=["password", "is_active"])
                out.write(
                    f"Kept the account {username!r}, which did things outside the demo event: "
                    "its password is removed and it can no longer log in.\n"
                )
    return removed


# The append-only tables (ledger 0002, integrity 0002/0003): their triggers refuse DELETE.
APPEND_ONLY = frozenset(
    {
        "ledger_transfer",
        "hands_handaction",
        "hands_actionvoid",
        "audit_auditentry",
        "events_dayruleschange",
        "tables_rebuyconsent",
        "integrity_refusedentry",
    }
)


def _rows_under(root: type[Any], ids: set[int]) -> dict[type[Any], set[int]]:
    """Every row that refers, through foreign keys, to the ``root`` rows ``ids`` (and they)."""
    found: dict[type[Any], set[int]] = {root: set(ids)}
    models = [m for m in apps.get_models() if m._meta.app_label not in ("auth", "contenttypes")]
    changed = True
    while changed:
        changed = False
        for model in models:
            for field in model._meta.concrete_fields:
                target = field.related_model if field.many_to_one or field.one_to_one else None
                if target is None or target not in found or not found[target]:
                    continue
                more = set(
                    model._base_manager.filter(**{f"{field.name}__in": found[target]}).values_list(
                        "pk", flat=True
                    )
                ) - found.get(model, set())
                if more:
                    found.setdefault(model, set()).update(more)
                    changed = True
        for model in list(found):
            for m2m in model._meta.many_to_many:
                through = m2m.remote_field.through
                rows = set(
                    through._base_manager.filter(
                        **{f"{m2m.m2m_field_name()}__in": found[model]}
                    ).values_list("pk", flat=True)
                ) - found.get(through, set())
                if rows:
                    found.setdefault(through, set()).update(rows)
    return found


@contextmanager
def _append_only_lifted(models: list[type[Any]]) -> Iterator[None]:
    """The append-only triggers of these tables disabled inside the caller's transaction (the
    table's owner may; the tables stay locked until it ends). SQLite's refuse UPDATE only."""
    if connection.vendor != "postgresql" or not models:
        yield
        return
    tables = [connection.ops.quote_name(m._meta.db_table) for m in models]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")  # nosec B608
    yield
    with connection.cursor() as cursor:
        # The foreign keys are checked now (they are deferred to the commit): a table with
        # checks pending cannot be altered.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table in tables:
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")  # nosec B608
