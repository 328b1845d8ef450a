"""People across events (players/people.py) and look-alike names (players/names.py): a person
entered into two events, an import that finds returning people and asks about look-alikes, a
merge that keeps both histories, and contact details that stay with the organisers."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from brag_event.audit.models import AuditEntry, Verb
from brag_event.closing.services import day_close_request
from brag_event.core.errors import ServiceError
from brag_event.events.services import day_open, event_create_flash
from brag_event.players.imports import (
    DIFFERENT,
    NEW,
    SAME,
    SKIP,
    players_import_confirm,
    players_import_preview,
)
from brag_event.players.links import player_path
from brag_event.players.models import Person, Player
from brag_event.players.names import name_key
from brag_event.players.people import people_search, person_merge, person_update
from brag_event.players.services import player_register
from brag_event.standings.selectors import person_history, standings
from brag_event.tables.seating import seating_draw
from tests.closing.test_day_close import play_one
from tests.factories import assert_audit_ok, user_in, world
from tests.worker import require

pytestmark = pytest.mark.django_db

# The look-alikes of the issue: a Cyrillic "а", Cyrillic "е"s, a trailing combining mark (and
# two marks), and letters of other scripts mixed in.
LOOK_ALIKES = [
    "H\u0430rvey Price",  # Cyrillic а
    "Harv\u0435y Pric\u0435",  # Cyrillic е twice
    "Harvey Price\u0301",  # a trailing combining acute accent
    "Harvey Price\u0308\u0323",  # two combining marks
    "Harvey Pr\u0456ce",  # Cyrillic і
    "\u041darvey Price",  # Cyrillic Н
    "Harvey Pric\u00e9",  # é composed
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_each_look_alike_has_the_same_key(name: str) -> None:
    assert name != "Harvey Price"
    assert name_key(name) == name_key("Harvey Price") == "harvey price"


def test_names_that_only_look_different_keep_different_keys() -> None:
    assert name_key("Harvey Price") != name_key("Harvey Prince")
    assert name_key("Priya Shah") != name_key("Priya Shaw")


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_is_refused_until_the_organiser_confirms_two_people(name: str) -> None:
    w = world(1)
    harvey = player_register(event=w.event, name="Harvey Price", by=None)
    with pytest.raises(ServiceError) as refused:
        player_register(event=w.event, name=name, by=None)
    assert refused.value.code == "player_exists"
    assert "looks the same as Harvey Price, already registered" in refused.value.message
    assert "two different people" in refused.value.message
    assert Player.objects.filter(event=w.event).count() == 2
    other = player_register(event=w.event, name=name, look_alike_confirmed=True, by=None)
    assert other.look_alike_confirmed and other.person_id != harvey.person_id
    logged = AuditEntry.objects.get(verb=Verb.PLAYER_LOOK_ALIKE)
    assert logged.player_id == other.pk
    assert logged.data["looks_like"] == harvey.pk
    assert logged.data["looks_like_number"] == harvey.person.number
    # The standings tell them apart by their membership numbers; the others keep their names.
    shown = {r["player"]: r["name"] for r in standings(w.event)}
    assert shown[harvey.pk] == f"Harvey Price (no. {harvey.person.number})"
    assert shown[other.pk] == f"{other.name} (no. {other.person.number})"
    assert shown[w.players[0].pk] == "Andy"
    assert_audit_ok(w.event)


def test_a_person_is_entered_into_two_events_with_money_per_event() -> None:
    first = world(1, name="Spring")
    priya = player_register(event=first.event, name="Priya Shah", starting_money=300, by=None)
    person_update(person=priya.person, club="Leeds Club", email="p@example.org", by=None)
    second = event_create_flash(name="Autumn", starting_money=1000, by=None)
    # Asked (the console, the API): the name finds her, with her number and club.
    with pytest.raises(ServiceError) as asked:
        player_register(event=second, name="PRIYA SHAH", ask_returning=True, by=None)
    number = priya.person.number
    assert asked.value.code == "person_matches"
    assert f"matches Priya Shah (no. {number}, Leeds Club): the same person?" in (
        asked.value.message
    )
    again = player_register(event=second, name="Priya Shah", number=number, by=None)
    assert again.person_id == priya.person_id and again.balance == 1000
    priya.refresh_from_db()
    assert priya.balance == 300  # each event's money is its own
    # Entered once per event.
    with pytest.raises(ServiceError) as twice:
        player_register(event=second, name="Priya Shah", person=priya.person, by=None)
    assert twice.value.code == "person_entered"
    # A number that belongs to someone else is refused, naming them.
    with pytest.raises(ServiceError) as wrong:
        player_register(event=second, name="Bob Ray", number=number, by=None)
    assert wrong.value.code == "number_taken" and "Priya Shah" in wrong.value.message
    history = person_history(priya.person)
    assert {h["event_name"]: h["money"] for h in history} == {"Spring": 300, "Autumn": 1000}
    # Someone new, said so: a second Priya Shah with a number of her own.
    other = player_register(
        event=first.event, name="Priya Shah", look_alike_confirmed=True, by=None
    )
    assert other.person.number != number
    assert_audit_ok(first.event)
    assert_audit_ok(second)


def test_the_import_matches_returning_people_and_asks_about_look_alikes() -> None:
    old = world(1, name="Last year")
    priya = player_register(event=old.event, name="Priya Shah", by=None)
    person_update(person=priya.person, club="Leeds Club", by=None)
    bob = player_register(event=old.event, name="Bob Ray", by=None)
    event = event_create_flash(name="This year", starting_money=1000, by=None)
    harvey = player_register(event=event, name="Harvey Price", by=None)
    text = (
        "Name,Number,Club\n"
        "Priya Shah,,\n"  # line 2: matches Priya by name: asks
        f"Bob Ray,{bob.person.number},\n"  # line 3: found by number: no question
        "H\u0430rvey Price,,York\n"  # line 4: looks the same as Harvey: asks
        "New Person,,York\n"  # line 5: someone new
    )
    batch = players_import_preview(event=event, data=text.encode(), by=None)
    rows = {r["line"]: r for r in batch.rows}
    number = priya.person.number
    assert rows[2]["matches"] == [
        {"person": priya.person_id, "text": f"Priya Shah (no. {number}, Leeds Club)"}
    ]
    assert rows[3]["person"] == bob.person_id and not rows[3]["matches"]
    assert rows[4]["looks_like"] == {"player": harvey.pk, "name": "Harvey Price"}
    # Not answered: refused in words, nothing registered.
    with pytest.raises(ServiceError) as undecided:
        players_import_confirm(batch=batch, by=None)
    assert undecided.value.code == "import_undecided"
    assert undecided.value.details == {"lines": [2, 4]}
    assert Player.objects.filter(event=event).count() == 1
    # The look-alike refused (left out) until confirmed; Priya is the same person.
    with pytest.raises(ServiceError):
        players_import_confirm(batch=batch, decisions={2: f"{SAME}{priya.person_id}"}, by=None)
    players = players_import_confirm(
        batch=batch, decisions={2: f"{SAME}{priya.person_id}", 4: DIFFERENT}, by=None
    )
    by_name = {p.name: p for p in players}
    assert by_name["Priya Shah"].person_id == priya.person_id
    assert by_name["Bob Ray"].person_id == bob.person_id
    york = by_name["H\u0430rvey Price"]
    assert york.person.club == "York" and york.look_alike_confirmed
    assert by_name["New Person"].person.number > number
    assert AuditEntry.objects.filter(verb=Verb.PLAYER_LOOK_ALIKE, player=york).exists()
    assert len(person_history(priya.person)) == 2
    assert_audit_ok(event)


def test_the_import_can_say_someone_new_or_leave_a_row_out() -> None:
    old = world(1, name="Old")
    priya = player_register(event=old.event, name="Priya Shah", by=None)
    event = event_create_flash(name="New", starting_money=1000, by=None)
    player_register(event=event, name="Harvey Price", by=None)
    batch = players_import_preview(event=event, data=b"Name\nPriya Shah\nHarvey Price\n", by=None)
    players = players_import_confirm(batch=batch, decisions={2: NEW, 3: SKIP}, by=None)
    assert [p.name for p in players] == ["Priya Shah"]
    assert players[0].person_id != priya.person_id


def test_a_merge_keeps_both_histories_and_the_ledger(
    django_capture_on_commit_callbacks: Any,
) -> None:
    spring = world(3, name="Spring")
    play_one(spring)
    with django_capture_on_commit_callbacks(execute=True):  # the close's task runs
        day_close_request(day=spring.day, by=None)
    andy_spring = spring.players[0]
    autumn = world(3, name="Autumn")  # Andy registered again: a new person by mistake
    andy_autumn = autumn.players[0]
    assert andy_spring.person_id != andy_autumn.person_id
    keep, remove = andy_spring.person, andy_autumn.person
    person_update(person=remove, phone="0123 456", by=None)
    kept = person_merge(keep=keep, remove=remove, by=None)
    assert set(Player.objects.filter(person=kept).values_list("pk", flat=True)) == {
        andy_spring.pk,
        andy_autumn.pk,
    }
    history = {h["event_name"]: h for h in person_history(kept)}
    assert set(history) == {"Spring", "Autumn"}
    assert history["Spring"]["days"][0]["closed"] and history["Spring"]["days"][0]["rank"]
    kept.refresh_from_db()
    remove.refresh_from_db()
    assert remove.merged_into_id == kept.pk and kept.phone == "0123 456"
    entry = AuditEntry.objects.get(verb=Verb.PERSON_MERGE)
    assert entry.data["kept"] == kept.pk and entry.data["removed_number"] == remove.number
    assert sorted(entry.data["entries"]) == [andy_autumn.pk]
    # The old number still finds the person kept.
    assert (
        player_register(
            event=event_create_flash(name="Winter", starting_money=10, by=None),
            name="Andy",
            number=remove.number,
            by=None,
        ).person_id
        == kept.pk
    )
    assert_audit_ok(spring.event)
    assert_audit_ok(autumn.event)


def test_a_merge_is_refused_in_words_when_both_play_one_event() -> None:
    w = world(2)
    a, b = w.players
    with pytest.raises(ServiceError) as refused:
        person_merge(keep=a.person, remove=b.person, by=None)
    assert refused.value.code == "merge_same_event"
    assert "are both entered in FLASH" in refused.value.message
    with pytest.raises(ServiceError) as same:
        person_merge(keep=a.person, remove=a.person, by=None)
    assert same.value.code == "merge_same"
    assert Person.objects.filter(merged_into__isnull=False).count() == 0


def test_contact_details_never_reach_public_pages_or_dealers(client: Client) -> None:
    w = world(2)
    andy = w.players[0]
    person_update(
        person=andy.person, email="andy.secret@example.org", phone="07700 900123", by=None
    )
    secrets = ("andy.secret@example.org", "07700 900123", "900123")
    pages = [
        client.get(f"/standings/{w.event.pk}/"),
        client.get(f"/standings/{w.event.pk}/hall/"),
        client.get(player_path(andy)),
        client.get(f"/api/v1/events/{w.event.pk}/standings/"),
    ]
    dealer = Client()
    user = user_in("dealer")
    w.table.dealers.add(user)
    dealer.force_login(user)
    pages += [
        dealer.get(f"/api/v1/tables/{w.table.pk}/"),
        dealer.get(f"/api/v1/days/{w.day.pk}/tables/"),
        dealer.get(f"/organiser/people/{andy.person_id}/"),
        dealer.get(f"/organiser/players/{andy.pk}/"),
    ]
    assert [p.status_code for p in pages[:6]] == [200] * 6
    assert [p.status_code for p in pages[6:]] == [403, 403]
    for page in pages:
        body = page.content.decode()
        assert not any(s in body for s in secrets), page.request["PATH_INFO"]
    organiser = Client()
    organiser.force_login(user_in("organiser"))
    mine = organiser.get(f"/organiser/people/{andy.person_id}/").content.decode()
    assert "andy.secret@example.org" in mine and "07700 900123" in mine


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_gives_every_player_a_person() -> None:
    """Players of a database from before people: migrated back to players 0001 (before the
    squashed 0002–0011, which carries the people's fill of 0007), then forward to the end. On
    PostgreSQL: SQLite cannot drop or add a column in place, so migrating back rebuilds each
    table from the state of the migration being undone."""
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    executor = MigrationExecutor(connection)
    graph = executor.loader.graph
    leaves = graph.leaf_nodes()
    # On a fresh database the squashed migration stands for players 0002–0011: the players of
    # 0001 are the ones from before people.
    kept = {("players", "0001_initial")}
    kept_players = {n for k in kept for n in graph.forwards_plan(k)}

    def without_later_players(node: tuple[str, str]) -> bool:
        return all(n[0] != "players" or n in kept_players for n in graph.forwards_plan(node))

    # Every other app goes back to its last migration that needs nothing of players after 0001
    # (a later one, such as the close's standings, needs the people).
    before = sorted(kept)
    for app in sorted({n[0] for n in leaves} - {"players"}):
        plan = graph.forwards_plan(next(n for n in leaves if n[0] == app))
        ok = [n for n in plan if n[0] == app and without_later_players(n)]
        if ok:
            before.append(ok[-1])
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    event = old.get_model("events", "Event").objects.create(
        name="Old", currency="MB", time_zone="Europe/London", uid=uuid.uuid4()
    )
    OldPlayer = old.get_model("players", "Player")
    a = OldPlayer.objects.create(event_id=event.pk, name="Andy")
    b = OldPlayer.objects.create(event_id=event.pk, name="Аndy")
    c = OldPlayer.objects.create(event_id=event.pk, name="Bill")
    executor = MigrationExecutor(connection)
    executor.migrate(leaves)
    rows = {p.pk: p for p in Player.objects.select_related("person")}
    assert [rows[p.pk].person.name for p in (a, b, c)] == ["Andy", "Аndy", "Bill"]
    assert len({rows[p.pk].person.number for p in (a, b, c)}) == 3
    # The two that only now look the same both stay, the later one shown with its number.
    assert rows[b.pk].name_key == rows[a.pk].name_key == "andy"
    assert (rows[a.pk].look_alike_confirmed, rows[b.pk].look_alike_confirmed) == (False, True)


def test_console_registration_asks_then_confirms(client: Client) -> None:
    w = world(1)
    client.force_login(user_in("organiser"))
    url = f"/organiser/events/{w.event.pk}/players/"
    asked = client.post(url, {"form": "register", "name": "\u0410ndy", "starting_money": "10"})
    body = asked.content.decode()
    assert asked.status_code == 400
    assert "looks the same as Andy, already registered" in body
    assert 'name="look_alike_confirmed"' in body
    done = client.post(
        url,
        {
            "form": "register",
            "name": "\u0410ndy",
            "starting_money": "10",
            "look_alike_confirmed": "on",
        },
        follow=True,
    )
    assert done.status_code == 200
    page = done.content.decode()
    assert Player.objects.filter(event=w.event).count() == 2
    for p in Player.objects.filter(event=w.event):
        assert f"(no. {p.person.number})" in page


def test_the_preview_finds_returning_people_in_a_few_queries(
    django_assert_max_num_queries: Any,
) -> None:
    """A file of 300 returning people (half by number, half by name): the preview looks them
    all up at once, not a query or two a row."""
    old = event_create_flash(name="Old", starting_money=10, by=None)
    people = [
        player_register(event=old, name=f"Person {i:03d}", by=None).person for i in range(300)
    ]
    event = event_create_flash(name="New", starting_money=10, by=None)
    lines = [f"{p.name},{p.number if i % 2 else ''}" for i, p in enumerate(people)]
    data = ("Name,Number\n" + "\n".join(lines) + "\n").encode()
    with django_assert_max_num_queries(20):
        batch = players_import_preview(event=event, data=data, by=None)
    by_line = {r["line"]: r for r in batch.rows}
    assert by_line[2]["matches"] == [
        {"person": people[0].pk, "text": f"Person 000 (no. {people[0].number})"}
    ]
    assert by_line[3]["person"] == people[1].pk and not by_line[3]["matches"]
    assert sum(1 for r in batch.rows if r["matches"]) == 150


def test_people_are_found_by_name_or_number() -> None:
    w = world(2)
    andy = w.players[0].person
    assert list(people_search(text=str(andy.number))) == [andy]
    assert list(people_search(text="\u0410NDY")) == [andy]  # Cyrillic А, any case
    assert list(people_search(text="\u00b2")) == []  # a digit that is not a number
    assert len(people_search(text="")) == 2


def test_a_person_s_club_is_their_entry_s_group_and_the_draw_keeps_it_apart() -> None:
    """docs/people.md: entering a person into an event, the entry's group is the person's club
    unless the registration or the file's row says another; a file's club fills both the new
    person's club and the entry's group. The draw then keeps a club's players apart."""
    first = event_create_flash(name="SPRING", by=None)
    ann = player_register(
        event=first, name="Ann Lee", starting_money=100, club="Rovers CC", by=None
    ).person
    bob = player_register(
        event=first, name="Bob Kay", starting_money=100, group="Rovers CC", by=None
    )
    assert bob.group == "Rovers CC" and bob.person.club == "Rovers CC"  # a group alone: both
    event = event_create_flash(name="AUTUMN", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    rows = [f"{ann.number},Ann Lee,,1000", f"{bob.person.number},Bob Kay,,1000"]
    rows += [",Cy Dee,Harriers,1000", ",Di Fox,harriers,1000"]
    rows += [f",Player {i:02d},,1000" for i in range(8)]
    data = ("Number,Name,Club,Starting money\n" + "\n".join(rows) + "\n").encode()
    batch = players_import_preview(event=event, data=data, file_name="autumn.csv", by=None)
    assert not [r for r in batch.rows if r["refused"] or r["matches"] or r["looks_like"]]
    assert [r["person"] for r in batch.rows[:2]] == [ann.pk, bob.person_id]
    players_import_confirm(batch=batch, by=None)
    entered = {p.name: p for p in Player.objects.filter(event=event).select_related("person")}
    assert entered["Ann Lee"].person == ann and entered["Ann Lee"].group == "Rovers CC"
    assert entered["Bob Kay"].group == "Rovers CC"
    assert entered["Cy Dee"].group == "Harriers" and entered["Cy Dee"].person.club == "Harriers"
    assert entered["Player 00"].group == "" and entered["Player 00"].person.club == ""
    draw = seating_draw(day=day, seed="people", by=None)
    at = {s["name"]: t["table"] for t in draw.plan for s in t["seats"]}
    assert len(draw.plan) == 2
    assert at["Ann Lee"] != at["Bob Kay"] and at["Cy Dee"] != at["Di Fox"]
    assert draw.apart["groups"] == 2 and not draw.apart["shared"]
    # A group said at registration wins over the person's club, for this entry only.
    third = event_create_flash(name="WINTER", by=None)
    again = player_register(event=third, name="Ann Lee", starting_money=1, person=ann, by=None)
    assert again.group == "Rovers CC"
    other = event_create_flash(name="SUMMER", by=None)
    apart = player_register(
        event=other, name="Ann Lee", starting_money=1, person=ann, group="Lee family", by=None
    )
    assert apart.group == "Lee family" and Person.objects.get(pk=ann.pk).club == "Rovers CC"
    assert_audit_ok(event)
