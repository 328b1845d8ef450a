"""The audit log: every call site names a member of ``Verb``; entries carry real references to
their subjects, the actor and the device; organisers filter the log by table, player, actor and
kind on a page, a page at a time."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.api.services import token_issue
from brag_event.audit.models import AuditEntry, Verb
from brag_event.audit.selectors import audit_entries
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.organiser import audit_views
from brag_event.tables.services import seat_sit_out, table_create
from tests.factories import World, act, signed_in, start, world

ROOT = Path(__file__).resolve().parents[2]
CALLS = {"audit_record", "audit_record_each", "audit_admin_edit"}


def _verbs(node: ast.expr) -> list[ast.expr]:
    """The expressions a ``verb=`` argument can take (both arms of a conditional)."""
    if isinstance(node, ast.IfExp):
        return _verbs(node.body) + _verbs(node.orelse)
    return [node]


def audit_calls() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in sorted((ROOT / "brag_event").rglob("*.py")):
        if "migrations" in path.parts or path.parent.name == "audit":
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name in CALLS:
                    found.append((str(path.relative_to(ROOT)), node.lineno, node))
    return found


def test_every_call_site_names_a_member_of_the_enumeration() -> None:
    calls = audit_calls()
    assert len(calls) >= 30  # every module that changes something records it
    for where, line, call in calls:
        verb = next((k.value for k in call.keywords if k.arg == "verb"), None)
        if verb is None and len(call.args) >= 4:  # audit_admin_edit(request, obj, form, verb)
            verb = call.args[3]
        if where.endswith("core/admin.py") and isinstance(verb, ast.Name):
            continue  # audit_admin_edit passes its own (typed) Verb parameter on
        assert verb is not None, f"{where}:{line}: no verb"
        for option in _verbs(verb):
            assert (
                isinstance(option, ast.Attribute)
                and isinstance(option.value, ast.Name)
                and option.value.id == "Verb"
                and option.attr in Verb.__members__
            ), f"{where}:{line}: the verb is not a member of Verb"


def test_every_member_is_used_somewhere() -> None:
    used = set()
    for _where, _line, call in audit_calls():
        for keyword in call.keywords:
            for option in _verbs(keyword.value) if keyword.arg == "verb" else []:
                used.add(getattr(option, "attr", ""))
        if len(call.args) >= 4:
            used.add(getattr(call.args[3], "attr", ""))
    assert set(Verb.__members__) - used == {"OTHER"}  # kept for entries of before the list


@pytest.mark.django_db
def test_a_free_text_verb_is_refused() -> None:
    with pytest.raises(TypeError):
        audit_record(by=None, verb="day.open")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        audit_record(by=None, verb=Verb.DAY_OPEN, colour=1)


@pytest.mark.django_db
def test_entries_refer_to_their_subjects_and_the_device_token() -> None:
    w = world(3)
    hand = start(w)
    started = AuditEntry.objects.get(verb=Verb.HAND_START)
    assert (started.hand, started.table, started.day, started.event) == (
        hand,
        w.table,
        w.day,
        w.event,
    )
    bought = AuditEntry.objects.filter(verb=Verb.SEAT_BUY_IN).order_by("id")
    assert [e.player for e in bought] == w.players
    assert {e.table for e in bought} == {w.table}
    opened = AuditEntry.objects.get(verb=Verb.DAY_OPEN)
    assert (opened.day, opened.event) == (w.day, w.event)
    dealer = User.objects.create_user("d1")
    token, _key = token_issue(name="Table 1 tablet", user_id=dealer.pk, by=None)
    by = Actor(dealer, "token:Table 1 tablet 10.0.0.1", token.pk)
    act(hand, by=by, seat=2, action="look")
    seat_sit_out(seat=w.seat(1), sitting_out=True, by=by)
    entry = AuditEntry.objects.get(verb=Verb.SEAT_SIT_OUT)
    assert (entry.actor, entry.device_token, entry.player) == (dealer, token, w.players[0])
    issued = AuditEntry.objects.get(verb=Verb.TOKEN_ISSUE)
    assert issued.token == token


def organiser() -> Client:
    return signed_in("organiser", "org")


def two_tables() -> tuple[World, int, User]:
    """Table 1 with three players; table 2 made by a supervisor; a sit-out by a dealer."""
    w = world(3)
    supervisor = User.objects.create_user("sup")
    second = table_create(day=w.day, by=Actor(supervisor, "web 10.0.0.2"))
    seat_sit_out(seat=w.seat(2), sitting_out=True, by=Actor(supervisor, "web 10.0.0.2"))
    return w, second.pk, supervisor


@pytest.mark.django_db
def test_the_selector_filters_by_table_player_actor_and_kind() -> None:
    w, second, supervisor = two_tables()
    event = w.event.pk
    on_table_1 = audit_entries(event_id=event, table_id=w.table.pk)
    assert {e.verb for e in on_table_1} == {Verb.TABLE_CREATE, Verb.SEAT_BUY_IN, Verb.SEAT_SIT_OUT}
    assert [e.verb for e in audit_entries(event_id=event, table_id=second)] == [Verb.TABLE_CREATE]
    bill = w.players[1]
    about_bill = [e.verb for e in audit_entries(event_id=event, player_id=bill.pk)]
    assert about_bill[:2] == [Verb.SEAT_SIT_OUT, Verb.SEAT_BUY_IN]  # newest first
    assert set(about_bill[2:]) == {Verb.PLAYER_REGISTER, Verb.PLAYER_ISSUE}
    by_supervisor = audit_entries(event_id=event, actor_id=supervisor.pk)
    assert [e.verb for e in by_supervisor] == [Verb.SEAT_SIT_OUT, Verb.TABLE_CREATE]
    assert audit_entries(event_id=event, verb=Verb.PLAYER_REGISTER).count() == 3
    both = audit_entries(event_id=event, actor_id=supervisor.pk, table_id=w.table.pk)
    assert [e.verb for e in both] == [Verb.SEAT_SIT_OUT]


@pytest.mark.django_db
def test_the_page_filters_and_pages() -> None:
    w, second, supervisor = two_tables()
    client = organiser()
    url = f"/organiser/events/{w.event.pk}/audit/"
    page = client.get(url)
    assert page.status_code == 200
    assert page.context["page"].paginator.count == AuditEntry.objects.filter(event=w.event).count()
    # A console page like the others: the console's navigation, this page marked in it.
    assert 'aria-current="page">Audit log<' in page.content.decode()
    html = client.get(url, {"table": str(second)}).content.decode()
    assert '<td data-label="What">table created</td>' in html
    assert '<td data-label="What">buy-in</td>' not in html
    answer = client.get(url, {"actor": str(supervisor.pk), "verb": "seat.sit_out"})
    rows = list(answer.context["page"])
    assert [(e.verb, e.player) for e in rows] == [(Verb.SEAT_SIT_OUT, w.players[1])]
    assert "sup" in answer.content.decode()
    rows = list(client.get(url, {"player": w.players[0].pk}).context["page"])
    assert {e.verb for e in rows} == {Verb.PLAYER_REGISTER, Verb.PLAYER_ISSUE, Verb.SEAT_BUY_IN}
    # Refused filters: a player of no event of this page, a kind not in the list.
    assert client.get(url, {"player": 999999}).status_code == 400
    assert client.get(url, {"verb": "hand.steal"}).status_code == 400


@pytest.mark.django_db
def test_the_pages_links_keep_the_filters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_views, "PER_PAGE", 2)
    w, _second, _supervisor = two_tables()
    client = organiser()
    url = f"/organiser/events/{w.event.pk}/audit/"
    first = client.get(url, {"verb": "player.register"})
    assert first.context["page"].paginator.num_pages == 2
    assert "?verb=player.register&amp;page=2" in first.content.decode()
    second = client.get(url, {"verb": "player.register", "page": "2"})
    assert len(second.context["page"]) == 1
    last = client.get(url, {"verb": "player.register", "page": "99"}).context["page"]
    assert last.number == 2  # past the end: the last page


@pytest.mark.django_db
def test_only_organisers_see_the_log() -> None:
    w = world(2)
    url = f"/organiser/events/{w.event.pk}/audit/"
    assert Client().get(url).status_code == 302
    dealer = User.objects.create_user("dealer")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    client = Client()
    client.force_login(dealer)
    assert client.get(url).status_code == 403


@pytest.mark.django_db
def test_every_message_about_a_hand_or_a_seat_names_its_day() -> None:
    """Issue 29: "Hand 15 at table 1" named no day, and every day has a table 1."""
    from brag_event.audit.models import AuditEntry, Verb
    from tests.factories import start, world

    w = world(3)
    start(w)
    hand_started = AuditEntry.objects.get(verb=Verb.HAND_START)
    assert hand_started.target == "Hand 1 at table 1, day 1"
    seated = AuditEntry.objects.filter(seat__isnull=False).order_by("pk")[0]
    assert seated.target.endswith(", day 1"), seated.target
    table = AuditEntry.objects.get(verb=Verb.TABLE_CREATE)
    assert table.target.count("day 1") == 1  # a table's own words name its day already
