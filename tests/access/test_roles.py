"""Roles for every event and of one event: what each user reaches, the queryset and the SQL
form agreeing (the tablet's hot path uses the SQL), and what a request spends on roles."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from brag_event.access.models import StaffRole
from brag_event.access.roles import event_roles, events_where, role_in, role_of
from brag_event.access.rules import PERMISSIONS, can, event_of
from brag_event.api.roles import TableAccess, hands_for, table_of_any_day, tables_for
from brag_event.events.models import Day
from brag_event.tables.models import Table
from brag_event.tables.versions import table_version
from tests.factories import start, user_in, world

pytestmark = pytest.mark.django_db


def staff(name: str, **roles_by_event: str) -> User:
    user = User.objects.create_user(name)
    for event_id, role in roles_by_event.items():
        StaffRole.objects.create(user=user, event_id=int(event_id[1:]), role=role)
    return user


def test_what_each_user_reaches_and_the_sql_agrees() -> None:
    a = world(3, name="A")
    b = world(2, name="B")
    closed = Table.objects.create(day=b.event.days.get(number=2), number=1)  # not open yet
    ea, eb = f"e{a.event.pk}", f"e{b.event.pk}"
    users = {
        "organiser": user_in("organiser"),
        "supervisor": user_in("supervisor"),
        "dealer": user_in("dealer"),
        "org_a": staff("org_a", **{ea: "organiser"}),
        "sup_a": staff("sup_a", **{ea: "supervisor"}),
        "dealer_a": staff("dealer_a", **{ea: "dealer"}),
        "dealer_b_on_a": staff("dealer_b_on_a", **{eb: "dealer"}),
        "org_b_sup_a": staff("org_b_sup_a", **{eb: "organiser", ea: "supervisor"}),
        "nobody": User.objects.create_user("nobody"),
    }
    # A global dealer who supervises B; and B's closed-day table.
    mixed = user_in("dealer", "mixed")
    StaffRole.objects.create(user=mixed, event=b.event, role="supervisor")
    users["mixed"] = mixed
    for name in ("dealer", "dealer_a", "dealer_b_on_a", "mixed"):
        a.table.dealers.add(users[name])
    expected = {
        "organiser": {a.table.pk, b.table.pk, closed.pk},
        "supervisor": {a.table.pk, b.table.pk},
        "dealer": {a.table.pk},
        "org_a": {a.table.pk},
        "sup_a": {a.table.pk},
        "dealer_a": {a.table.pk},
        "dealer_b_on_a": set(),  # on A's list, but a dealer of B only
        "org_b_sup_a": {a.table.pk, b.table.pk, closed.pk},
        "mixed": {a.table.pk, b.table.pk},
        "nobody": set(),
    }
    for name, user in users.items():
        seen = set(tables_for(user).values_list("pk", flat=True))
        assert seen == expected[name], name
        for table in Table.objects.all():
            version = tables_for(user).filter(pk=table.pk).values_list("version", flat=True).first()
            assert table_version(table.pk, TableAccess(user)) == version, (name, table.number)
    # The closed day's table, as its day's state rather than "no such table".
    assert table_of_any_day(users["org_b_sup_a"], closed.pk) == closed
    assert table_of_any_day(users["sup_a"], closed.pk) is None
    hand = start(b)
    assert hands_for(users["org_b_sup_a"]).filter(pk=hand.pk).exists()
    assert not hands_for(users["org_a"]).filter(pk=hand.pk).exists()
    assert events_where(users["org_b_sup_a"], "supervisor") == {a.event.pk, b.event.pk}
    assert events_where(users["org_b_sup_a"], "organiser") == {b.event.pk}
    assert events_where(users["supervisor"], "supervisor") is None
    assert role_of(users["org_b_sup_a"]) == "organiser"
    assert role_in(users["org_b_sup_a"], a.event.pk) == "supervisor"


def test_every_permission_by_role_in_and_out_of_the_event() -> None:
    a = world(1, name="A")
    other = world(1, name="B")
    ea = f"e{a.event.pk}"
    for role in ("organiser", "supervisor", "dealer"):
        scoped = staff(f"{role}_a", **{ea: role})
        site = user_in(role, f"{role}_site")
        for name, rule in PERMISSIONS.items():
            rank = ["player", "dealer", "supervisor", "organiser"]
            holds = rank.index(role) >= rank.index(rule.role)
            assert can(site, name, a.event) == holds, (role, name)
            assert can(scoped, name, a.event) == (holds and not rule.site), (role, name)
            assert not can(scoped, name, other.event) or rule.role == "player", (role, name)
    assert not can(None, "player.self") and not can(AnonymousUser(), "event.manage", a.event)
    off = user_in("organiser", "off")
    off.is_active = False
    assert not can(off, "event.manage", a.event)


def test_a_url_names_its_event() -> None:
    w = world(2)
    hand = start(w)
    assert event_of({"event_id": w.event.pk}) == w.event.pk
    assert event_of({"day_id": w.day.pk}) == w.event.pk
    assert event_of({"table_id": w.table.pk}) == w.event.pk
    assert event_of({"seat_id": w.seats[0].pk}) == w.event.pk
    assert event_of({"hand_id": hand.pk}) == w.event.pk
    assert event_of({"player_id": w.players[0].pk}) == w.event.pk
    assert event_of({"table_id": 10**9}) is None and event_of({}) is None


def test_a_user_without_roles_of_one_event_spends_no_query_on_them(client: object) -> None:
    w = world(1)
    dealer = user_in("dealer")
    scoped = staff("scoped", **{f"e{w.event.pk}": "dealer"})
    from django.contrib.auth import get_user

    for user, queries in ((dealer, 0), (scoped, 1)):
        from django.test import Client

        c = Client()
        c.force_login(user)
        request = c.get("/").wsgi_request
        loaded = get_user(request)
        with CaptureQueriesContext(connection) as seen:
            event_roles(loaded)
            event_roles(loaded)
            role_in(loaded, w.event.pk)
        assert len(seen) == queries, (user, [q["sql"] for q in seen])
    assert Day.objects.exists()


def test_a_sessions_user_comes_in_one_query_with_their_role_and_player() -> None:
    """The session's user is read by one hand-written query: the role the groups give, the
    player (or that there is none) already there, and the role as the ORM would decide it."""
    from brag_event.access.roles import global_role
    from brag_event.api.auth import RoleAwareModelBackend

    w = world(2)
    player_user = User.objects.create_user("seat1")
    player = w.players[0]
    player.user = player_user
    player.save(update_fields=["user"])
    cases = {
        user_in("organiser"): ("organiser", None),
        user_in("dealer"): ("dealer", None),
        player_user: ("player", player.pk),
        User.objects.create_user("nobody"): ("public", None),
        User.objects.create_superuser("root"): ("organiser", None),
    }
    backend = RoleAwareModelBackend()
    for user, (role, player_id) in cases.items():
        with CaptureQueriesContext(connection) as seen:
            loaded = backend.get_user(str(user.pk))  # as the session keeps it
            assert loaded is not None and loaded.pk == user.pk
            assert loaded.username == user.username and loaded.password == user.password
            assert global_role(loaded) == role
            found = getattr(loaded, "player", None)
            assert (found.pk if found else None) == player_id
            if found:
                assert found.user is loaded and found.name == player.name
        assert len(seen) == 1, (user, [q["sql"] for q in seen])


def test_a_sessions_user_id_that_names_no_active_user_is_nobody() -> None:
    from brag_event.api.auth import RoleAwareModelBackend

    gone = User.objects.create_user("gone", is_active=False)
    backend = RoleAwareModelBackend()
    for bad in (gone.pk, gone.pk + 1000, "x", "", None, "1.5", -1, 0, 2**63, "9" * 40):
        assert backend.get_user(bad) is None, bad
