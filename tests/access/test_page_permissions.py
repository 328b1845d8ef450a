"""The permission matrix of every page of the console, the floor and the integrity monitor:
every route (read from the URL configuration, so none is left out) against every role —
staff for every event, staff of this event only, staff of ANOTHER event, a dealer, a player,
nobody and an anonymous visitor.

A page a role may open answers 200 (or 302/405: a form's redirect, a POST-only page asked with
GET); a page it may not answers 403 (anonymous: the sign-in page) — and a POST to it changes
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from brag_event.access.models import StaffRole
from brag_event.api.models import DeviceToken, token_hash
from brag_event.audit.models import AuditEntry
from brag_event.closing.models import CountWaiver, TableCount
from brag_event.events.models import Day
from brag_event.events.services import event_create_flash
from brag_event.floor.services import floor_call_open
from brag_event.hands.models import Hand
from brag_event.ledger.models import Transfer
from brag_event.players.imports import players_import_preview
from brag_event.players.models import Player
from brag_event.series.models import Series
from brag_event.series.services import series_create
from tests.factories import disqualify, start, user_in, world

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "nobody",
    "player",
    "dealer",
    "supervisor",
    "organiser",
    "here_dealer",
    "here_supervisor",
    "here_organiser",
    "away_supervisor",
    "away_organiser",
)
NAMESPACES = ("organiser", "floor", "integrity")

# Who may open each page, by the permission it needs (brag_event/access/rules.py):
#   event   — organisers of the page's event (global, or of that event)
#   floor   — organisers and supervisors of the page's event
#   any_org — an organiser of any event (the page shows only what is theirs)
#   site    — an organiser of every event (global)
#   open    — anybody (signing in and out)
EVENT = {"organiser", "here_organiser"}
FLOOR = EVENT | {"supervisor", "here_supervisor"}
ANY_ORG = EVENT | {"away_organiser"}
SITE = {"organiser"}
NEEDS: dict[str, set[str] | None] = {
    "organiser:events": ANY_ORG,
    "organiser:login": None,
    "organiser:logout": None,
    "organiser:event_new": SITE,
    "organiser:dashboard": EVENT,
    "organiser:event_setup": EVENT,
    "organiser:day_setup": EVENT,
    "organiser:dashboard_live": EVENT,
    "organiser:audit_log": EVENT,
    "organiser:audit_now": EVENT,
    "organiser:players": EVENT,
    "organiser:staff": EVENT,
    "organiser:player": EVENT,
    "organiser:player_link": EVENT,
    "organiser:people": SITE,
    "organiser:person": SITE,
    "organiser:export_standings": EVENT,
    "organiser:export_ledger": EVENT,
    "organiser:tokens": ANY_ORG,
    "organiser:lockouts": SITE,
    "organiser:series": SITE,
    "organiser:series_detail": SITE,
    "organiser:token_revoke": ANY_ORG,
    "organiser:day_open": EVENT,
    "organiser:day_close": EVENT,
    "organiser:day_close_status": EVENT,
    "organiser:count_waive": EVENT,
    "organiser:table_count": FLOOR,
    "organiser:count_rule": EVENT,
    "organiser:export_hands": EVENT,
    "organiser:results_day": EVENT,
    "organiser:results_day_pdf": EVENT,
    "organiser:results_event": EVENT,
    "organiser:results_event_pdf": EVENT,
    # The results exchange file: an event's for its organisers; an import for organisers of
    # every event (it makes an event and registers people).
    "organiser:results_exchange": EVENT,
    "organiser:results_import": SITE,
    "organiser:seating": EVENT,
    "organiser:checkin": FLOOR,  # the desk (checkin.desk); its window form stays EVENT's
    "organiser:seating_sheets": EVENT,
    "organiser:seating_balance": EVENT,
    "organiser:seating_dealers": EVENT,
    "organiser:rota": EVENT,
    "organiser:day_rules_copy": EVENT,
    "organiser:day_large_pot": EVENT,
    "organiser:requalify": EVENT,
    "organiser:import_batch": EVENT,
    "organiser:hall": EVENT,
    "integrity:overview": FLOOR,
    "integrity:run": FLOOR,
    "integrity:hand": FLOOR,
    "integrity:dealers": FLOOR,
    "floor:board": FLOOR,
    "floor:dealing": FLOOR,
    "floor:call": FLOOR,
    "floor:lift": FLOOR,
    "floor:award_confirm": FLOOR,
    "floor:hand_history": FLOOR,
}


def routes() -> set[str]:
    """Every named page of the three namespaces."""
    found: set[str] = set()

    def walk(patterns: Any, namespace: str | None) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and namespace in NAMESPACES and p.name:
                found.add(f"{namespace}:{p.name}")

    walk(get_resolver().url_patterns, None)
    return found


def snapshot() -> tuple[Any, ...]:
    return (
        AuditEntry.objects.count(),
        Transfer.objects.count(),
        tuple(Day.objects.order_by("pk").values_list("pk", "status")),
        tuple(Hand.objects.order_by("pk").values_list("pk", "status", "next_seq")),
        tuple(
            Player.objects.order_by("pk").values_list("pk", "balance", "name", "link_generation")
        ),
        tuple(DeviceToken.objects.order_by("pk").values_list("pk", "revoked_at")),
        tuple(Series.objects.order_by("pk").values_list("pk", "name", "points")),
        tuple(User.objects.order_by("pk").values_list("pk", "is_active", "password")),
        TableCount.objects.count(),
        CountWaiver.objects.count(),
    )


@pytest.fixture
def state() -> dict[str, Any]:
    w = world(3)
    hand = start(w)
    call = floor_call_open(table=w.table, hand=hand, note="dispute", by=None)
    penalty = disqualify(w.table, w.players[2]).penalties.get()
    other = event_create_flash(name="OTHER", by=None)
    users: dict[str, User] = {}
    for role in ROLES[1:6]:
        users[role] = user_in("nobody" if role == "player" else role, role)
    w.players[0].user = users["player"]
    w.players[0].save(update_fields=["user"])
    for name in ROLES[6:]:
        where, role = name.split("_", 1)
        users[name] = User.objects.create_user(name, password="x")
        StaffRole.objects.create(
            user=users[name], event=w.event if where == "here" else other, role=role
        )
    w.table.dealers.add(users["dealer"], users["here_dealer"])
    key = DeviceToken.new_key()
    token = DeviceToken.objects.create(
        user=users["here_dealer"], name="Table 1 tablet", key_hash=token_hash(key), prefix=key[:6]
    )
    kwargs = {
        "event_id": w.event.pk,
        "day_id": w.day.pk,
        "player_id": w.players[0].pk,
        "person_id": w.players[0].person_id,
        "token_id": token.pk,
        "hand_id": hand.pk,
        "table_id": w.table.pk,
        "call_id": call.pk,
        "penalty_id": penalty.pk,
        "series_id": series_create(name="Summer series", points=[3, 2, 1], by=None).pk,
        "batch_id": players_import_preview(
            event=w.event, data=b"name,money\nNew Player,100\n", by=None
        ).pk,
    }
    return {"w": w, "users": users, "kwargs": kwargs}


def url_of(name: str, kwargs: dict[str, Any]) -> str:
    for wanted in (
        {},
        {"event_id": kwargs["event_id"]},
        {"day_id": kwargs["day_id"]},
        {"player_id": kwargs["player_id"]},
        {"person_id": kwargs["person_id"]},
        {"token_id": kwargs["token_id"]},
        {"hand_id": kwargs["hand_id"]},
        {"table_id": kwargs["table_id"]},
        {"call_id": kwargs["call_id"]},
        {"penalty_id": kwargs["penalty_id"]},
        {"batch_id": kwargs["batch_id"]},
        {"series_id": kwargs["series_id"]},
    ):
        try:
            return reverse(name, kwargs=wanted)
        except Exception:
            continue
    raise AssertionError(f"no URL for {name}")


def test_the_table_names_every_page() -> None:
    assert routes() == set(NEEDS)


def test_every_page_against_every_role(state: dict[str, Any]) -> None:
    clients = {}
    for role in ROLES:
        c = Client()
        if role != "anonymous":
            c.force_login(state["users"][role])
        clients[role] = c
    checked = 0
    for name, allowed in NEEDS.items():
        if allowed is None:
            continue
        url = url_of(name, state["kwargs"])
        for role in ROLES:
            client = clients[role]
            response = client.get(url)
            where = f"GET {name} as {role}"
            if role == "anonymous":
                assert response.status_code == 302, where
                assert response["Location"].startswith("/organiser/login/"), where
            elif role in allowed:
                assert response.status_code in (200, 302, 405), (where, response.status_code)
                if response.status_code == 302:
                    assert "/login/" not in response["Location"], where
            else:
                assert response.status_code == 403, (where, response.status_code)
                before = snapshot()
                posted = client.post(url, {"form": "x"})
                assert posted.status_code == 403, f"POST {name} as {role}"
                assert snapshot() == before, f"POST {name} as {role} changed something"
            checked += 1
    assert checked == sum(1 for a in NEEDS.values() if a is not None) * len(ROLES)


def test_staff_of_another_event_are_told_so(state: dict[str, Any]) -> None:
    client = Client()
    client.force_login(state["users"]["away_organiser"])
    page = client.get(url_of("organiser:dashboard", state["kwargs"]))
    assert page.status_code == 403
    text = page.content.decode()
    assert "another event" in text and "OTHER" in text
