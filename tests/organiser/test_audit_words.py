"""Every kind of audit entry (``Verb``) reads as a sentence with names: a table of what each
service records (``SAMPLES``, every kind and its variants) is said in words, and so is every
entry a played event really writes. No sentence holds a stored key, a row's id or a Python
value; a staff id is said as the person's name; and every value an entry records is said,
unless the table below says why not (so a service that records a value under a new name — an
import's "refused" lines read as "rejected", always 0 — fails here)."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.access.services import staff_create
from brag_event.api.services import token_issue
from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.actors import Actor
from brag_event.organiser.audit_words import Names, audit_sentence
from brag_event.players.imports import (
    players_import_confirm,
    players_import_preview,
    players_import_undo,
)
from tests.factories import user_in, world
from tests.organiser.test_page_words import problems

pytestmark = pytest.mark.django_db

# Row ids no sentence may show: distinctive, so that finding one is never a coincidence.
CALL, RULING, RUN, IMPORT, PROPOSAL, TRANSFER, PERSON, PERSON2, ANNOUNCE, PENALTY = range(
    987_650_001, 987_650_011
)
HAND, SEAT, DAY_ID, ENTRY1, ENTRY2 = range(987_650_011, 987_650_016)
IDS = tuple(range(987_650_001, 987_650_016))
MEERA, DEALER = 987_640_001, 987_640_002  # staff accounts (their names are said)
PLAYER_A, PLAYER_B = "player_a", "player_b"  # stand-ins for two players' real ids


# What each service records, by kind (the services' own ``data``), with the values of each.
SAMPLES: dict[Verb, list[dict[str, Any]]] = {
    Verb.EVENT_CREATE: [
        {"preset": "FLASH", "time_zone": "Asia/Kolkata"},
        {"preset": "", "days": 3, "time_zone": "Asia/Kolkata"},
        {"currency": "MB", "via": "admin"},
    ],
    Verb.EVENT_UPDATE: [{"changed": {"name": ["Open", "Kolkata Open"]}}],
    Verb.EVENT_STARTING_MONEY: [{"before": None, "after": 1000}, {"before": 500, "after": 1000}],
    Verb.EVENT_IMPORT: [
        {
            "file": "results.json",
            "source": "Pune club",
            "uid": "0f3c1a2e-9d4b-4f5e-8a7b-1c2d3e4f5a6b",
            "days": 3,
            "people_new": 12,
            "people_known": 1,
        }
    ],
    Verb.DAY_CREATE: [{"rules": {"ante": 5}, "via": "admin"}],
    Verb.DAY_UPDATE: [{"changed": {"ante": [5, 10]}}],
    Verb.DAY_RULES: [{"changed": {"ante": [5, 10], "see_cost": ["equal", "double"]}}],
    Verb.DAY_DATE: [
        {
            "day_id": DAY_ID,
            "day": 2,
            "before": "2026-11-28",
            "after": "2026-11-29",
            "reason": "the hall moved",
        },
        {"day_id": DAY_ID, "day": 2, "before": None, "after": "2026-11-29", "reason": ""},
    ],
    Verb.DAY_QUALIFICATION: [{"rule": "top", "top": 12}, {"rule": "afford", "top": None}],
    Verb.DAY_OPEN: [{}],
    Verb.DAY_CLOSE_REQUESTED: [{"again": False, "count": True}, {"again": True}, {"again": False}],
    Verb.DAY_CLOSED: [
        {"seats_returned": 1, "qualified": 1, "audit_ok": True, "record_root": "3fa2" * 16},
        {"seats_returned": 22, "qualified": 12, "audit_ok": False, "record_root": "ab" * 32},
    ],
    Verb.DAY_COUNT: [
        {"table": 3, "counts": {"1": 240, "2": 200}, "differences": {"2": -10}},
        {"table": 3, "counts": {"1": 240}, "differences": {}},
    ],
    Verb.DAY_COUNT_RULING: [
        {
            "table": 3,
            "seat": SEAT,
            "recorded": 210,
            "counted": 200,
            "ruling": "correct",
            "source": "count",
            "reason": "chips fell",
            "transfer": TRANSFER,
        },
        {
            "table": 3,
            "seat": SEAT,
            "recorded": 210,
            "counted": 200,
            "ruling": "stand",
            "source": "",
            "reason": "recount agreed",
            "transfer": None,
        },
    ],
    Verb.DAY_COUNT_WAIVED: [{"reason": "the hall closed early"}],
    Verb.DAY_CARRIED_SHARED: [
        {
            "amount": 30,
            "shares": [
                {"player_id": PLAYER_A, "amount": 20},
                {"player_id": PLAYER_B, "amount": 10},
            ],
        }
    ],
    Verb.PLAYER_REGISTER: [
        {"money": 1000, "person": PERSON, "number": 1042, "group": "Pune Brag Club"},
        {"money": 0, "person": PERSON, "number": 1042},
        {"money": 1000, "person": PERSON, "number": 1042, "returning": True},
        {"money": 1000, "import": IMPORT, "person": PERSON, "number": 1042},
        {"money": 1000, "import": IMPORT, "person": PERSON, "number": 1042, "returning": True},
    ],
    Verb.PLAYER_IMPORT: [
        {"import": IMPORT, "registered": 17, "refused": 5, "money": 17_000},
        {"import": IMPORT, "registered": 1, "refused": 0, "money": 0},
    ],
    Verb.PLAYER_IMPORT_UNDO: [{"import": IMPORT, "removed": 1, "money_taken_back": 1000}],
    Verb.PLAYER_ISSUE: [{"amount": 500}],
    Verb.PLAYER_UPDATE: [
        {"player": PLAYER_A, "changed": {"club_or_group": ["none", "Pune Brag Club"]}},
        {"changed": {"name": ["Asha", "Asha Verma"]}},
    ],
    Verb.PLAYER_RENAME: [{"player": PLAYER_A, "before": "Asha", "after": "Asha Verma"}],
    Verb.PLAYER_WITHDRAW: [
        {"player": PLAYER_A, "reason": "went home", "left_table": 3, "balance": 640},
        {"player": PLAYER_A, "reason": "", "left_table": None, "balance": 0},
    ],
    Verb.PLAYER_REINSTATE: [{"player": PLAYER_A}],
    Verb.PLAYER_REQUALIFY: [{"day": 2, "reason": "sponsor's invitation"}],
    Verb.PLAYER_REMOVE: [
        {"player": PLAYER_A, "reason": "typed twice", "money_taken_back": 1000, "import": None},
        {"player": PLAYER_A, "reason": "", "money_taken_back": 0, "import": IMPORT},
    ],
    Verb.PLAYER_LINK_REISSUE: [{"player": PLAYER_A, "replaced": 1, "link": 2}],
    Verb.PLAYER_LOOK_ALIKE: [
        {
            "player": PLAYER_A,
            "name": "Harvey Price",
            "number": 1043,
            "looks_like": PLAYER_B,
            "looks_like_name": "HARVEY PRICE",
            "looks_like_number": 1001,
            "import": IMPORT,
        }
    ],
    Verb.PERSON_UPDATE: [
        {
            "person": PERSON,
            "before": {"name": "Asha", "club": ""},
            "after": {"name": "Asha Verma", "club": "Pune Brag Club"},
        }
    ],
    Verb.PERSON_MERGE: [
        {
            "kept": PERSON,
            "kept_number": 1001,
            "removed": PERSON2,
            "removed_number": 1044,
            "removed_name": "Asha Vermaa",
            "entries": [ENTRY1, ENTRY2],
        }
    ],
    Verb.TABLE_CREATE: [{}],
    Verb.TABLE_DEALERS: [
        {"before": [MEERA], "after": [DEALER], "names": ["dealer1"]},
        {"dealers": ["dealer1", "dealer2"]},  # the admin's
    ],
    Verb.TABLE_BALANCE: [
        {
            "proposal": PROPOSAL,
            "kind": "break",
            "moves": [{"name": "Asha Verma", "from_table": 4, "to_table": 1, "to_seat": 6}],
        },
        {"proposal": PROPOSAL, "kind": "balance", "moves": []},
    ],
    Verb.DEALER_SHIFT_START: [
        {"dealer": "dealer1", "relieved": "dealer2"},
        {"dealer": "dealer1", "relieved": None},
    ],
    Verb.DEALER_SHIFT_END: [
        {"dealer": "dealer1", "how": "relieved", "minutes": 41.5, "next": "dealer2"},
        {"dealer": "dealer1", "how": "moved", "minutes": 1.0, "to_table": 2},
        {"dealer": "dealer1", "how": "signed_out", "minutes": 0.2},
        {"dealer": "dealer1", "how": "day_closed", "minutes": 90.0},
    ],
    Verb.DEALER_ROTA: [
        {
            "starts_at": "2026-11-28T14:00:00+05:30",
            "minutes": 30,
            "changes": 8,
            "tables": 4,
            "dealers": 5,
        }
    ],
    Verb.SEATING_DRAW: [
        {"seed": "day-2", "tables": 4, "players": 22, "excluded": 1, "groups_sharing": 2},
        {"seed": "day-2", "tables": 1, "players": 1, "excluded": 0, "groups_sharing": 0},
        {
            "seed": "day-2",
            "tables": 2,
            "players": 11,
            "excluded": 3,
            "not_checked_in": 2,
            "groups_sharing": 0,
        },
    ],
    Verb.PLAYER_CHECK_IN: [{"day": 2, "how": "page"}, {"day": 2, "how": "desk"}],
    Verb.CHECKIN_WINDOW: [
        {
            "day": 2,
            "opens": "Sat 28 Nov 17:00 IST",
            "closes": "Sat 28 Nov 18:30 IST",
            "only_checked_in": True,
            "moved": False,
        },
        {
            "day": 2,
            "opens": "Sat 28 Nov 17:00 IST",
            "closes": "Sat 28 Nov 19:00 IST",
            "only_checked_in": False,
            "moved": True,
        },
    ],
    Verb.NOTIFY_CONTACT: [
        {
            "before": {"email": False, "kinds": []},
            "after": {"email": True, "kinds": ["seat", "close"]},
        },
        {"before": {"email": True, "kinds": ["seat"]}, "after": {"email": False, "kinds": []}},
        {"push": True},
        {"push": False},
    ],
    Verb.NOTIFY_UNSUBSCRIBE: [{}],
    Verb.FEED_SETTINGS: [
        {
            "before": {"delay_minutes": 10, "big_pot": 500},
            "after": {"delay_minutes": 15, "big_pot": 800},
        }
    ],
    Verb.FEED_ENTRY_REMOVE: [{"entry": 7, "text": "Day 2 opened: 18 players at 3 tables."}],
    Verb.SEAT_LATE_ARRIVAL: [{"table": 2, "seat": 3, "players": 5, "amount": 240}],
    Verb.SEATING_APPLY: [
        {"seed": "day-2", "tables": [1, 2, 3, 4], "players": 22, "renumbered": {"5": 4}},
        {"seed": "day-2", "tables": [1], "players": 1, "renumbered": {}},
    ],
    Verb.SEAT_BUY_IN: [{"amount": 200, "fee": 10}],
    Verb.SEAT_REBUY: [
        {"amount": 200, "fee": 10, "consents": [2, 3]},
        {"amount": 200, "fee": 0, "consents": [2]},
        {"amount": 200, "fee": 0, "consents": []},
    ],
    Verb.SEAT_SIT_OUT: [{}],
    Verb.SEAT_COME_BACK: [{}],
    Verb.SEAT_LEAVE: [{"stack": 240}],
    Verb.SEAT_MOVE: [
        {"from_table": 4, "from_seat": 2, "to_table": 1, "to_seat": 6, "stack": 240},
    ],
    Verb.HAND_START: [
        {"dealer": 2, "dealt": [1, 2, 3], "carried": 0, "kept_hand_dead": None},
        {"dealer": 2, "dealt": [1, 3], "carried": 30, "kept_hand_dead": 2},
    ],
    Verb.HAND_VOID: [
        {"seq": 5, "action": "bet", "reason": "wrong amount"},
        {
            "seq": 5,
            "action": "bet",
            "reason": "misheard (taken back at the table)",
            "at_table": "misheard",
        },
    ],
    Verb.HAND_MISDEAL: [{"reason": "a card showed", "refunds": {"1": 5, "2": 5}}],
    Verb.HAND_AWARD_WAITS: [
        {"awards": [{"pot": 0, "amount": 640, "players": ["Asha Verma"]}], "threshold": 500}
    ],
    Verb.HAND_AWARD_CONFIRM: [
        {
            "awards": [{"pot": 0, "amount": 640, "players": ["Asha Verma"]}],
            "entered_by": DEALER,
            "where": "floor",
            "seq": 9,
        }
    ],
    Verb.DAY_AWARD_FROM: [
        {"before": 50, "after": 400, "open": True, "reason": "the ante went up"},
        {"before": 400, "after": None, "open": False, "reason": ""},
    ],
    Verb.FLOOR_CALL: [
        {"call": CALL, "hand": HAND, "note": "seat 3 showed a card"},
        {"call": CALL, "hand": None, "note": ""},
    ],
    Verb.FLOOR_TAKE: [{"call": CALL}],
    Verb.FLOOR_RULING: [
        {"ruling": RULING, "players": [PLAYER_A], "penalty": "warning", "missed_hands": None},
        {"ruling": RULING, "players": [PLAYER_A], "penalty": "missed_hands", "missed_hands": 3},
        {"ruling": RULING, "players": [], "penalty": "", "missed_hands": None},
    ],
    Verb.FLOOR_LIFT: [{"penalty": PENALTY, "reason": "apologised"}],
    Verb.TOKEN_ISSUE: [{"user": DEALER}],
    Verb.TOKEN_REVOKE: [{}],
    Verb.LOGIN_LOCKED_OUT: [
        {"ip_address": "10.0.0.5", "path": "/organiser/login/"},
        {"ip_address": "10.0.0.5", "path": "/api/v1/auth/login/"},
    ],
    Verb.LOGIN_UNLOCK: [{"ip_address": "10.0.0.5", "attempts": 1}],
    Verb.INTEGRITY_RUN: [
        {"run": RUN, "trigger": "manual", "hands": 1, "flags": []},
        {"run": RUN, "trigger": "periodic", "hands": 412, "flags": ["folds: Asha and Bill"]},
    ],
    Verb.STAFF_CREATE: [{"user": MEERA, "role": "supervisor"}],
    Verb.STAFF_PASSWORD: [{"user": MEERA, "sessions_ended": 1}],
    Verb.STAFF_DEACTIVATE: [{"user": MEERA, "sessions_ended": 2, "tokens_revoked": 1}],
    Verb.STAFF_ACTIVATE: [{"user": MEERA}],
    Verb.ANNOUNCEMENT_POST: [{"announcement": ANNOUNCE, "text": "Break at 16:00"}],
    Verb.ANNOUNCEMENT_REMOVE: [{"announcement": ANNOUNCE}],
    Verb.DAY_CLOCK: [
        {"break_at": "16:00", "ends_at": "22:00"},
        {"break_at": None, "ends_at": None},
    ],
    Verb.SERIES_CREATE: [{"points": [25, 18, 15]}],
    Verb.SERIES_CHANGE: [
        {"added": "Kolkata Open"},
        {"removed": "Kolkata Open"},
        {"changed": {"points": ["25, 18, 15", "25, 18, 15, 12"]}},
    ],
    Verb.OTHER: [{"note": "entered on paper", "table": 3, "user": MEERA, "player": PLAYER_A}],
}

# Values an entry records that its sentence leaves out, and why.
UNSAID: dict[Verb, set[str]] = {
    # Ids: the page shows the player, table and hand in columns of their own; the others name
    # rows a person never sees (a draw's, a run's, a call's number).
    Verb.DAY_COUNT: {"counts"},  # every seat's count: the differences are what matters
    Verb.DAY_COUNT_RULING: {"seat", "transfer", "source"},  # the source: with a correction
    Verb.DAY_QUALIFICATION: {"top"},  # said with the rule "top N" only
    Verb.DAY_CREATE: {"rules"},  # the day's rules: its set-up page shows them
    Verb.DAY_DATE: {"day_id"},
    # The settings before: the entry before this one says them.
    Verb.NOTIFY_CONTACT: {"before"},
    Verb.FEED_SETTINGS: {"before"},
    Verb.FEED_ENTRY_REMOVE: {"entry"},  # the entry's row; its words are said
    Verb.EVENT_IMPORT: {"uid"},  # the event's identity in the results format
    Verb.PLAYER_REGISTER: {"person"},
    Verb.PLAYER_IMPORT: {"import"},
    Verb.PLAYER_IMPORT_UNDO: {"import"},
    Verb.PLAYER_UPDATE: {"player"},
    Verb.PLAYER_RENAME: {"player"},
    Verb.PLAYER_WITHDRAW: {"player"},
    Verb.PLAYER_REINSTATE: {"player"},
    Verb.PLAYER_REMOVE: {"player"},
    Verb.PLAYER_LINK_REISSUE: {"player", "replaced", "link"},  # the links' generations
    Verb.PLAYER_LOOK_ALIKE: {"player", "name", "number", "looks_like", "import"},
    Verb.PERSON_UPDATE: {"person"},
    Verb.PERSON_MERGE: {"kept", "removed"},
    Verb.TABLE_DEALERS: {"before", "after"},  # ids: "names" says them
    Verb.TABLE_BALANCE: {"proposal"},
    Verb.HAND_VOID: {"at_table"},  # the reason's key: "reason" says it in words
    Verb.HAND_AWARD_CONFIRM: {"seq"},
    Verb.FLOOR_CALL: {"call", "hand"},
    Verb.FLOOR_TAKE: {"call"},
    Verb.FLOOR_RULING: {"ruling", "missed_hands"},  # how many: with a missed-hands penalty
    Verb.FLOOR_LIFT: {"penalty"},
    Verb.INTEGRITY_RUN: {"run"},
    Verb.ANNOUNCEMENT_POST: {"announcement"},
    Verb.ANNOUNCEMENT_REMOVE: {"announcement"},
    Verb.DAY_CLOSE_REQUESTED: set(),
    Verb.OTHER: set(),
}


class Read(dict[str, Any]):
    """An entry's data that remembers which of its keys the sentence read."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)

    def items(self) -> Any:
        self.read.update(self.keys())
        return super().items()


def said(verb: str, data: dict[str, Any], names: Names) -> tuple[str, set[str]]:
    """The sentence of an entry of ``verb`` recording ``data``, and the keys it left unread."""
    recorded = Read(data)
    sentence = audit_sentence(AuditEntry(verb=verb, data=recorded), names)
    return sentence, set(data) - recorded.read


def faults(sentence: str, data: dict[str, Any]) -> list[str]:
    found = problems(sentence)
    first = sentence.split(" ", 1)[0].removesuffix("'s")
    # A capital, a figure, or a name as it was recorded (a user name: "dealer1 signed in").
    starts = sentence[:1].isupper() or sentence[:1].isdigit() or first in data.values()
    if not starts or not sentence.endswith((".", "…")):
        found.append("not a sentence")
    if "a member of staff" in sentence or "a player" in sentence.replace("a player's", ""):
        found.append("a name not found")
    return found


@pytest.fixture
def named() -> dict[str, int]:
    """The staff and players the samples' ids stand for."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    users.create_user("meera", pk=MEERA, first_name="Meera", last_name="Iyer")
    users.create_user("dealer1", pk=DEALER)
    w = world(2)
    return {PLAYER_A: w.players[0].pk, PLAYER_B: w.players[1].pk}


def test_every_kind_of_entry_has_samples() -> None:
    assert set(SAMPLES) == set(Verb), set(Verb) - set(SAMPLES)


def test_every_kind_reads_as_a_sentence_with_names(named: dict[str, int]) -> None:
    wrong = []
    for verb, samples in SAMPLES.items():
        for sample in samples:
            data = real_ids(sample, named)
            sentence, unread = said(verb, data, Names([AuditEntry(verb=verb, data=data)]))
            ids = [i for i in (*IDS, MEERA, DEALER) if str(i) in sentence or f"{i:,}" in sentence]
            missing = [
                name
                for name, pk in (("Meera Iyer", MEERA), ("dealer1", DEALER))
                if pk in data.values() and name not in sentence
            ]
            found = faults(sentence, data) + [f"a row's id {i}" for i in ids]
            found += [f"{sorted(unread - UNSAID.get(verb, set()))} not said"] * bool(
                unread - UNSAID.get(verb, set())
            )
            found += [f"{name} not named" for name in missing]
            if found:
                wrong.append(f"{verb.value}: {sentence!r}: {'; '.join(found)}")
    assert not wrong, "\n".join(wrong)


def real_ids(value: Any, named: dict[str, int]) -> Any:
    if isinstance(value, dict):
        return {k: real_ids(v, named) for k, v in value.items()}
    if isinstance(value, list):
        return [real_ids(v, named) for v in value]
    return named.get(value, value) if isinstance(value, str) else value


@pytest.mark.parametrize(
    ("verb", "data", "sentence"),
    [
        (
            Verb.PLAYER_IMPORT,
            {"import": IMPORT, "registered": 17, "refused": 5, "money": 17_000},
            "17 players imported with 17,000 of starting money; 5 lines of the file refused.",
        ),
        (
            Verb.PLAYER_IMPORT,
            {"import": IMPORT, "registered": 1, "refused": 1, "money": 0},
            "1 player imported; 1 line of the file refused.",
        ),
        (
            Verb.PLAYER_IMPORT_UNDO,
            {"import": IMPORT, "removed": 1, "money_taken_back": 1000},
            "Import undone: 1 player withdrawn, 1,000 of starting money taken back.",
        ),
        (
            Verb.STAFF_CREATE,
            {"user": MEERA, "role": "dealer"},
            "Staff account created for Meera Iyer, as a dealer.",
        ),
        (
            Verb.DAY_CLOSED,
            {"seats_returned": 1, "qualified": 1, "audit_ok": True, "record_root": ""},
            "Day closed: 1 stack returned to its player, the ledger audit passed, 1 player "
            "qualified for the next day.",
        ),
        (
            Verb.DEALER_SHIFT_END,
            {"dealer": "dealer1", "how": "moved", "minutes": 1.0, "to_table": 2},
            "dealer1's shift ended after 1 minute: moved to table 2.",
        ),
    ],
)
def test_the_sentences_the_event_in_kolkata_read_wrong(
    verb: Verb, data: dict[str, Any], sentence: str, named: dict[str, int]
) -> None:
    """ "user: 13; role: dealer", "import: 10; removed: 1", "0 lines refused" for 5, "1 players"."""
    assert said(verb, data, Names([AuditEntry(verb=verb, data=data)]))[0] == sentence


def test_every_entry_of_a_played_event_reads_as_a_sentence(event_played: Any) -> None:
    """The entries services really write — a day played and closed, a ruling, a draw, a file
    imported with lines refused and undone, a staff account, a tablet's token — said in words,
    and recorded with the keys the samples above show (the samples are what services write)."""
    w = event_played
    organiser = Actor(user_in("organiser", "olga"), "test")
    staff = staff_create(
        event=w.event,
        username="meera",
        full_name="Meera Iyer",
        role="dealer",
        password="a-long-enough-password-1",
        by=organiser,
    )
    token_issue(user_id=staff.user_id, name="Table 1 tablet", by=organiser)
    batch = players_import_preview(
        event=w.event, data=b"name,starting money\nZed,1000\nYann,-5\nXi,abc\n", by=organiser
    )
    players_import_confirm(batch=batch, by=organiser)
    players_import_undo(batch=batch, by=organiser)
    entries = list(AuditEntry.objects.order_by("pk"))
    names = Names(entries)
    verbs = set()
    for entry in entries:
        sentence, unread = said(entry.verb, entry.data, names)
        assert not faults(sentence, entry.data), (entry.verb, sentence)
        assert unread <= UNSAID.get(Verb(entry.verb), set()), (entry.verb, sorted(unread))
        shapes = [set(s) for s in SAMPLES[Verb(entry.verb)]]
        assert set(entry.data) in shapes, (entry.verb, sorted(entry.data), "not among SAMPLES")
        verbs.add(entry.verb)
    imported = AuditEntry.objects.get(verb=Verb.PLAYER_IMPORT)
    assert said(imported.verb, imported.data, names)[0] == (
        "1 player imported with 1,000 of starting money; 2 lines of the file refused."
    )
    created = AuditEntry.objects.get(verb=Verb.STAFF_CREATE)
    assert said(created.verb, created.data, names)[0] == (
        "Staff account created for Meera Iyer, as a dealer."
    )
    assert len(verbs) >= 20, sorted(verbs)  # the walk saw most kinds for real
