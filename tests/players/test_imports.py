"""A file of players, as organisers' spreadsheets write it: every messy case the organiser met
(issue 27) read row by row in the preview, nothing written before the confirmation, the
confirmation registering exactly what was previewed, the ledger audit passing after an import,
its undo and a removal, and no undo or removal once a player has played."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.audit.models import AuditEntry
from brag_event.events.services import event_create_flash, event_set_starting_money
from brag_event.ledger.models import Transfer
from brag_event.players.imports import (
    DIFFERENT,
    SKIP,
    player_remove,
    players_import_confirm,
    players_import_preview,
    players_import_undo,
)
from brag_event.players.models import ImportBatch, Player
from brag_event.players.services import player_issue_money, player_register
from brag_event.standings.selectors import standings
from brag_event.tables.withdraw import player_reinstate
from tests.factories import assert_audit_ok, refused, world

pytestmark = pytest.mark.django_db


def rows(batch: ImportBatch) -> list[tuple[int, str, Any, str]]:
    return [(r["line"], r["name"], r["money"], r["refused"]) for r in batch.rows]


def new_event(starting_money: int | None = 1000) -> Any:
    return event_create_flash(name="Import", starting_money=starting_money, by=None)


ORGANISERS_FILE = (
    "Name,Starting Money,Phone\n"
    "Ann Lee,1000,0123\n"
    "Bob Ray,1500,\n"
    "Cat Moss,1000,\n"
    "Dee Fry, 2000 ,\n"
    "Eve Gill,1000,\n"
    "Fay Hunt,1000,\n"
    "Gus Pike,1000,\n"
    "Ian Fox,abc,\n"
    "Jack Stone,-50,\n"
)


def test_the_organisers_file_registers_nobody_with_0_and_refuses_bad_money() -> None:
    event = new_event()
    batch = players_import_preview(event=event, data=ORGANISERS_FILE.encode(), by=None)
    assert batch.columns["columns"] == [
        {"header": "Name", "read_as": "name"},
        {"header": "Starting Money", "read_as": "starting money"},
        {"header": "Phone", "read_as": "left out"},
    ]
    assert batch.default_money is None  # the file has its own money column
    assert rows(batch)[3] == (5, "Dee Fry", 2000, "")
    assert rows(batch)[-2:] == [
        (9, "Ian Fox", None, "the starting money “abc” is not a whole number"),
        (10, "Jack Stone", None, "the starting money “-50” is negative"),
    ]
    assert not Player.objects.filter(event=event).exists()  # a preview writes no player
    registered = players_import_confirm(batch=batch, by=None)
    assert len(registered) == 7
    balances = dict(Player.objects.filter(event=event).values_list("name", "balance"))
    assert balances == {
        "Ann Lee": 1000,
        "Bob Ray": 1500,
        "Cat Moss": 1000,
        "Dee Fry": 2000,
        "Eve Gill": 1000,
        "Fay Hunt": 1000,
        "Gus Pike": 1000,
    }
    assert 0 not in balances.values()
    assert_audit_ok(event)
    entry = AuditEntry.objects.get(verb="player.import")
    assert entry.data == {"import": batch.pk, "registered": 7, "refused": 2, "money": 8500}
    assert AuditEntry.objects.filter(verb="player.register", event=event).count() == 7


@pytest.mark.parametrize(
    ("data", "encoding", "separator"),
    [
        (
            "name;Starting money\nZoë Müller;1.000\nJosé Núñez;900\n".encode("cp1252"),
            "Windows Western (cp1252)",
            "semicolon",
        ),
        ("NAME\tMB\nZoë Müller\t1000\nJosé Núñez\t900\n".encode(), "UTF-8", "tab"),
        (
            "\ufeffPlayer , Money\nZoë Müller,1000\nJosé Núñez,900\n".encode(),
            "UTF-8 with a byte-order mark",
            "comma",
        ),
        (
            "Name;money\r\nZoë Müller;1000\r\nJosé Núñez;900\r\n".encode("latin-1"),
            "Windows Western (cp1252)",
            "semicolon",
        ),
        (
            "name\tstarting_money\nZoë Müller\t1000\nJosé Núñez\t900\n".encode("utf-16"),
            "UTF-16",
            "tab",
        ),
    ],
    ids=["cp1252-semicolon", "tab", "bom", "latin1-crlf", "utf16"],
)
def test_separators_encodings_and_headers_are_detected(
    data: bytes, encoding: str, separator: str
) -> None:
    event = new_event()
    batch = players_import_preview(event=event, data=data, by=None)
    assert (batch.encoding, batch.separator) == (encoding, separator)
    assert rows(batch) == [(2, "Zoë Müller", 1000, ""), (3, "José Núñez", 900, "")]
    players_import_confirm(batch=batch, by=None)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["José Núñez", "Zoë Müller"]
    assert_audit_ok(event)


def test_a_stray_quote_is_refused_at_its_own_row_and_the_rest_is_read() -> None:
    event = new_event()
    text = 'name,money\nAnn,100\n"Bob Ray,200\nCat,300\nDee",400\nEve,500\n"Fay,600\n'
    batch = players_import_preview(event=event, data=text.encode(), by=None)
    assert [(line, name, why[:30]) for line, name, _m, why in rows(batch)] == [
        (2, "Ann", ""),
        (3, '"Bob Ray,200', 'a quote (") opened on line 3 i'),
        (4, "Cat", ""),
        (5, 'Dee"', ""),
        (6, "Eve", ""),
        (7, '"Fay,600', 'a quote (") opened on this lin'),
    ]
    assert rows(batch)[1][3].startswith('a quote (") opened on line 3 is only closed on line 5')
    assert rows(batch)[5][3] == 'a quote (") opened on this line is never closed'


def test_a_missing_name_is_a_refused_row_not_a_blank_line() -> None:
    event = new_event()
    text = "name,money,club\nAnn,100,x\n,1000,\n,,\n\nBob,,North\n"
    batch = players_import_preview(event=event, data=text.encode(), by=None)
    assert rows(batch) == [
        (2, "Ann", 100, ""),
        (3, "", None, "no name on this row"),
        (6, "Bob", None, "no starting money on this row"),
    ]
    assert batch.columns["empty_lines"] == 2


def test_duplicates_in_the_file_and_in_the_event_are_refused() -> None:
    event = new_event()
    player_register(event=event, name="Harvey Price", by=None)
    text = "name\nHARVEY PRICE\nAnn Lee\nann  lee\nBob\n"
    batch = players_import_preview(event=event, data=text.encode(), by=None)
    assert batch.rows[0]["looks_like"]["name"] == "Harvey Price"
    assert rows(batch) == [
        (2, "HARVEY PRICE", 1000, ""),  # asks: a look-alike (tests/players/test_people.py)
        (3, "Ann Lee", 1000, ""),
        (4, "ann lee", None, "the same name as line 3"),
        (5, "Bob", 1000, ""),
    ]


def test_without_a_money_column_the_event_default_is_given_and_said() -> None:
    event = new_event(starting_money=750)
    batch = players_import_preview(event=event, data=b"Name,Club\nAnn,North\n", by=None)
    assert batch.default_money == 750 and rows(batch) == [(2, "Ann", 750, "")]
    # An event with no starting money set refuses such a file rather than giving 0.
    bare = event_create_flash(name="Bare", by=None)
    err = refused(
        "no_starting_money",
        lambda: players_import_preview(event=bare, data=b"name\nAnn\n", by=None),
    )
    assert "no starting money set" in err.message
    # ... and so does registering without an amount.
    refused("no_starting_money", lambda: player_register(event=bare, name="Ann", by=None))
    assert player_register(event=event, name="Bob", by=None).balance == 750
    event_set_starting_money(event=bare, amount=300, by=None)
    bare.refresh_from_db()
    assert player_register(event=bare, name="Ann", by=None).balance == 300


@pytest.mark.parametrize(
    ("text", "code", "says"),
    [
        ("who,cash\nx,1\n", "invalid_csv", "one called “Name”"),
        ("name\n", "invalid_csv", "Nothing to import"),
        ("", "invalid_csv", "The file is empty."),
        ("name,money,MB\nAnn,1,2\n", "invalid_csv", "Two columns could be the starting money"),
        ("name\n" + "".join(f"P{i}\n" for i in range(2001)), "too_many_rows", "2,000"),
    ],
)
def test_a_file_that_cannot_be_read_whole_says_why(text: str, code: str, says: str) -> None:
    event = new_event()
    err = refused(code, lambda: players_import_preview(event=event, data=text.encode(), by=None))
    assert says in err.message
    assert not ImportBatch.objects.exists()


def test_the_confirmation_registers_exactly_the_preview_or_nothing() -> None:
    event = new_event()
    batch = players_import_preview(event=event, data=b"name,money\nAnn,100\nBob,200\n", by=None)
    event_set_starting_money(event=event, amount=5, by=None)  # no effect on a money column
    player_register(event=event, name="BOB", starting_money=1, by=None)  # meanwhile
    err = refused("import_stale", lambda: players_import_confirm(batch=batch, by=None))
    assert "“BOB”" in err.message
    assert list(Player.objects.values_list("name", flat=True)) == ["BOB"]
    again = players_import_preview(event=event, data=b"name,money\nAnn,100\nBob,200\n", by=None)
    # "Bob" now looks the same as the registered "BOB": the organiser leaves the row out.
    assert again.rows[1]["looks_like"]["name"] == "BOB"
    refused("import_undecided", lambda: players_import_confirm(batch=again, by=None))
    assert players_import_confirm(batch=again, decisions={3: SKIP}, by=None)[0].balance == 100
    refused("import_done", lambda: players_import_confirm(batch=again, by=None))
    assert Player.objects.count() == 2
    assert_audit_ok(event)


def test_an_import_is_undone_with_reversing_entries_and_its_names_freed() -> None:
    event = new_event()
    text = b"name,money\nAnn,100\nBob,200\nCat,300\n"
    batch = players_import_confirm(
        batch=players_import_preview(event=event, data=text, by=None), by=None
    )
    ann = Player.objects.get(name="Ann")
    player_issue_money(player=ann, amount=50, by=None)  # extra money is taken back too
    player_remove(player=Player.objects.get(name="Cat"), reason="twice", by=None)
    batch_row = ImportBatch.objects.get()
    assert players_import_undo(batch=batch_row, by=None) == 2
    assert batch and not standings(event)  # off the lists
    assert set(Player.objects.values_list("balance", flat=True)) == {0}
    assert Player.objects.filter(removed_at__isnull=False, withdrawn_at__isnull=False).count() == 3
    reversals = Transfer.objects.filter(kind="reversal")
    assert reversals.count() == 4 and all(t.reverses_id for t in reversals)
    assert_audit_ok(event)
    entry = AuditEntry.objects.get(verb="player.import_undo")
    assert entry.data == {"import": batch_row.pk, "removed": 2, "money_taken_back": 350}
    refused("import_not_undoable", lambda: players_import_undo(batch=batch_row, by=None))
    refused("player_removed", lambda: player_reinstate(player=ann, by=None))
    # The names are free: the corrected file registers them again.
    players_import_confirm(batch=players_import_preview(event=event, data=text, by=None), by=None)
    assert Player.objects.filter(removed_at__isnull=True).count() == 3
    assert_audit_ok(event)


def test_no_undo_or_removal_once_a_player_has_played() -> None:
    w = world(1)  # Andy, bought in at table 1
    text = b"name,money\nZed,500\nYan,500\n"
    batch = players_import_preview(event=w.event, data=text, by=None)
    players_import_confirm(batch=batch, by=None)
    from brag_event.tables.services import seat_buy_in

    zed = Player.objects.get(name="Zed")
    seat_buy_in(table=w.table, seat_number=2, player=zed, amount=200, by=None)
    err = refused("player_has_played", lambda: players_import_undo(batch=batch, by=None))
    assert "“Zed”" in err.message
    refused("player_has_played", lambda: player_remove(player=zed, reason="x", by=None))
    refused("player_has_played", lambda: player_remove(player=w.players[0], reason="x", by=None))
    assert not Player.objects.filter(removed_at__isnull=False).exists()
    # The one who has not played can still be removed on their own.
    yan = player_remove(player=Player.objects.get(name="Yan"), reason="typo", by=None)
    assert yan.removed_at is not None and yan.balance == 0
    refused("already_removed", lambda: player_remove(player=yan, reason="again", by=None))
    assert_audit_ok(w.event)
    removal = AuditEntry.objects.get(verb="player.remove")
    assert removal.player_id == yan.pk
    assert removal.data["reason"] == "typo" and removal.data["money_taken_back"] == 500


def test_a_removed_players_name_can_be_registered_again() -> None:
    event = new_event()
    first = player_register(event=event, name="Ann Lee", starting_money=10, by=None)
    player_remove(player=first, reason="a typo", by=None)
    again = player_register(event=event, name="ANN LEE", starting_money=20, by=None)
    assert again.pk != first.pk and again.balance == 20
    assert [r["name"] for r in standings(event)] == ["ANN LEE"]
    assert_audit_ok(event)


@pytest.mark.slow  # 2,000 players registered and audited
def test_the_largest_file_is_registered_in_a_few_statements(
    django_assert_max_num_queries: Any,
) -> None:
    """2,000 rows (the most a file may have), each with its own amount: the confirmation and
    the undo take a statement per chunk of rows the database takes at once (SQLite's is the
    smallest: 124 statements there, with each row's person), not some 25 a row as registering
    one by one did; the ledger is right after."""
    event = new_event()
    text = "Name,Starting Money\n" + "".join(f"Player {i:04d},{1000 + i}\n" for i in range(2000))
    batch = players_import_preview(event=event, data=text.encode(), by=None)
    with django_assert_max_num_queries(150):
        registered = players_import_confirm(batch=batch, by=None)
    assert len(registered) == 2000
    assert Transfer.objects.filter(kind="issue").count() == 2000
    assert AuditEntry.objects.filter(verb="player.register").count() == 2000
    assert_audit_ok(event)
    with django_assert_max_num_queries(100):
        assert players_import_undo(batch=batch, by=None) == 2000
    assert_audit_ok(event)


def test_a_club_column_registers_each_player_s_group() -> None:
    event = new_event()
    data = (
        f"Name;Club;Starting money\nAnn Lee;Rovers  CC;1000\nBob Kay;;900\nCy Dee;{'x' * 81};900\n"
    ).encode()
    batch = players_import_preview(event=event, data=data, file_name="clubs.csv", by=None)
    read_as = {c["header"]: c["read_as"] for c in batch.columns["columns"]}
    assert read_as == {"Name": "name", "Club": "club or group", "Starting money": "starting money"}
    assert [(r["name"], r["group"], r["refused"]) for r in batch.rows] == [
        ("Ann Lee", "Rovers CC", ""),
        ("Bob Kay", "", ""),
        ("Cy Dee", "x" * 80, "a club or group is at most 80 characters"),
    ]
    players_import_confirm(batch=batch, by=None)
    groups = dict(Player.objects.filter(event=event).values_list("name", "group"))
    assert groups == {"Ann Lee": "Rovers CC", "Bob Kay": ""}
    assert_audit_ok(event)


def test_two_people_of_one_name_told_apart_by_their_numbers_register_as_previewed() -> None:
    """Issue 43: "John Smith,6001" and "John Smith,6002" (and "Vera Wang" / "VERA  WANG") are
    two people the file tells apart; the preview says both register and the confirmation
    registers both, each shown with their number."""
    event = new_event()
    text = (
        "Name,Membership number\nJohn Smith,6001\nJohn Smith,6002\nVera Wang,6003\n"
        "VERA  WANG,6004\nAnn Lee,\n"
    )
    batch = players_import_preview(event=event, data=text.encode(), by=None)
    assert [r["refused"] for r in batch.rows] == [""] * 5
    assert [bool(r["apart"]) for r in batch.rows] == [False, True, False, True, False]
    assert batch.rows[1]["apart"] == {"line": 2, "name": "John Smith", "number": 6001}
    registered = players_import_confirm(batch=batch, by=None)
    assert sorted((p.name, p.person.number) for p in registered) == [
        ("Ann Lee", 1001),
        ("John Smith", 6001),
        ("John Smith", 6002),
        ("VERA WANG", 6004),
        ("Vera Wang", 6003),
    ]
    shown = {r["name"] for r in standings(event)}
    assert {"John Smith (no. 6001)", "John Smith (no. 6002)", "Ann Lee"} <= shown
    alike = AuditEntry.objects.filter(verb="player.look_alike", event_id=event.pk)
    assert sorted(e.data["looks_like_number"] for e in alike) == [6001, 6003]
    assert_audit_ok(event)


def test_look_alikes_within_one_file_are_asked() -> None:
    """A look-alike spelling (Cyrillic "о") or a row of the name without its number is asked:
    confirmed as another person it registers, left out it does not; unanswered, nothing does."""
    event = new_event()
    text = "Name,Membership number\nJohn Smith,6001\nJ\u043ehn Smith,6002\njohn smith,\n"
    batch = players_import_preview(event=event, data=text.encode(), by=None)
    assert [r["refused"] for r in batch.rows] == ["", "", ""]
    assert [r["looks_like"] for r in batch.rows] == [
        None,
        {"line": 2, "name": "John Smith"},
        {"line": 2, "name": "John Smith"},
    ]
    refused("import_undecided", lambda: players_import_confirm(batch=batch, by=None))
    assert not Player.objects.filter(event=event).exists()
    players_import_confirm(batch=batch, decisions={3: DIFFERENT, 4: SKIP}, by=None)
    names = sorted(Player.objects.filter(event=event).values_list("name", "person__number"))
    assert names == [("John Smith", 6001), ("J\u043ehn Smith", 6002)]


def test_an_undone_import_leaves_nobody_to_find_among_the_people() -> None:
    """Issue 43: an undone import's people are no one's to find (their rows stay for the
    entries and the record that name them); a person with another entry still is."""
    from brag_event.players.people import people_search

    event = new_event()
    kept = player_register(event=new_event_named("Other"), name="Kim Poe", by=None)
    batch = players_import_preview(
        event=event, data=b"Name,Membership number\nAnn Lee,\nBo Day,\n", by=None
    )
    players_import_confirm(batch=batch, by=None)
    assert {p.name for p in people_search(text="")} >= {"Ann Lee", "Bo Day", "Kim Poe"}
    players_import_undo(batch=batch, by=None)
    assert [p.name for p in people_search(text="")] == ["Kim Poe"]
    assert list(people_search(text="Ann")) == []
    assert kept.person.number in {p.number for p in people_search(text="")}


def new_event_named(name: str) -> Any:
    return event_create_flash(name=name, starting_money=100, by=None)
