"""The organisers' seating pages: who may see them, and the forms working through POST."""

from __future__ import annotations

import re
from typing import Any

import pytest
import segno
from django.contrib.auth.models import User
from django.test import Client

from brag_event.events.models import Day
from brag_event.events.services import day_open, event_create_flash
from brag_event.players.links import player_from_token, player_path
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, SeatingDraw, Table
from brag_event.tables.seating import balance_proposals
from brag_event.tables.services import seat_buy_in, table_create
from tests.factories import assert_audit_ok, user_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def day() -> Day:
    event = event_create_flash(name="FLASH", by=None)
    for i in range(8):
        player_register(event=event, name=f"Player {i}", starting_money=1000, by=None)
    player_register(event=event, name="Skint", starting_money=20, by=None)
    return day_open(day=event.days.get(number=1), by=None)


@pytest.fixture
def organiser(client: Client) -> Client:
    client.force_login(user_in("organiser", "org"))
    return client


def url(day: Day, page: str = "") -> str:
    return f"/organiser/days/{day.pk}/seating/{page}"


PAGES = ["", "sheets/", "balance/", "dealers/"]


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_users_are_sent_to_log_in(client: Client, day: Day, page: str) -> None:
    response = client.get(url(day, page))
    assert response.status_code == 302
    assert response["Location"].startswith("/organiser/login/?next=")
    assert f"/organiser/days/{day.pk}/seating/" in response["Location"].replace("%2F", "/")


@pytest.mark.parametrize("page", PAGES)
def test_dealers_and_supervisors_are_refused(client: Client, day: Day, page: str) -> None:
    client.force_login(user_in("dealer", "dealer"))
    assert client.get(url(day, page)).status_code == 403
    assert client.post(url(day, page), {"form": "draw"}).status_code == 403
    client.force_login(user_in("supervisor", "super"))
    assert client.get(url(day, page)).status_code == 403
    assert not SeatingDraw.objects.exists()


@pytest.mark.parametrize("page", PAGES)
def test_organisers_see_every_page(organiser: Client, day: Day, page: str) -> None:
    response = organiser.get(url(day, page))
    assert response.status_code == 200
    assert b"<h1>" in response.content


def test_draw_then_apply_through_the_forms(organiser: Client, day: Day) -> None:
    page = organiser.get(url(day)).content.decode()
    assert 'name="csrfmiddlewaretoken"' in page
    response = organiser.post(url(day), {"form": "draw", "seed": "page-seed"})
    assert response.status_code == 302
    draw = SeatingDraw.objects.get()
    assert draw.seed == "page-seed"
    page = organiser.get(response["Location"]).content.decode()
    assert "Draw page-seed" in page
    assert "Apply this draw" in page
    assert "Skint" in page and "cannot afford 100 (90 + fee 10)" in page
    for entry in draw.plan[0]["seats"]:
        assert entry["name"] in page
    # Applying asks once: the first post says what it does and changes nothing.
    asked = organiser.post(url(day), {"form": "apply", "draw": draw.pk})
    assert asked.status_code == 200
    assert "Apply draw page-seed now?" in asked.content.decode()
    assert not Seat.objects.exists() and SeatingDraw.objects.get().applied_at is None
    response = organiser.post(url(day), {"form": "apply", "draw": draw.pk, "confirm": "yes"})
    assert response.status_code == 302
    assert Seat.objects.filter(left_at__isnull=True).count() == 8
    page = organiser.get(response["Location"]).content.decode()
    assert "8 players seated" in page
    assert "Apply this draw" not in page
    # Applying again is refused on the page.
    response = organiser.post(url(day), {"form": "apply", "draw": draw.pk, "confirm": "yes"})
    assert response.status_code == 409
    assert "draw_applied" in response.content.decode()
    assert Seat.objects.filter(left_at__isnull=True).count() == 8
    assert_audit_ok(day.event)


def test_an_empty_seed_draws_a_random_one(organiser: Client, day: Day) -> None:
    organiser.post(url(day), {"form": "draw", "seed": ""})
    organiser.post(url(day), {"form": "draw"})
    seeds = list(SeatingDraw.objects.values_list("seed", flat=True))
    assert len(seeds) == 2 and all(re.fullmatch(r"[0-9a-f]{16}", s) for s in seeds)
    page = organiser.get(url(day)).content.decode()
    assert all(s in page for s in seeds)  # the previous draws


def test_sheets_have_a_qr_code_per_player(organiser: Client, day: Day) -> None:
    organiser.post(url(day), {"form": "draw", "seed": "sheets"})
    apply = {"form": "apply", "draw": SeatingDraw.objects.get().pk, "confirm": "yes"}
    organiser.post(url(day), apply)
    page = organiser.get(url(day, "sheets/")).content.decode()
    assert page.count("<svg") == 8
    assert page.count('class="sheet"') == 2
    links = re.findall(r'<div class="link">http://testserver/p/([^/<]+)/</div>', page)
    seated = set(Seat.objects.filter(left_at__isnull=True).values_list("player_id", flat=True))
    linked = {p.pk for token in links if (p := player_from_token(token)) is not None}
    assert len(links) == 8 and linked == seated
    assert player_path(Player.objects.get(pk=min(seated))).startswith("/p/")


def test_balance_form_applies_a_proposal(organiser: Client, day: Day) -> None:
    players = list(Player.objects.filter(event=day.event).exclude(name="Skint"))
    for group in (players[:6], players[6:8]):
        table = table_create(day=day, by=None)
        for number, player in enumerate(group, 1):
            seat_buy_in(table=table, seat_number=number, player=player, amount=200, by=None)
    page = organiser.get(url(day, "balance/")).content.decode()
    (proposal,) = balance_proposals(day=day)
    assert proposal["id"] in page and "Apply" in page
    response = organiser.post(url(day, "balance/"), {"proposal": proposal["id"]})
    assert response.status_code == 302
    counts = [t.seats.filter(left_at__isnull=True).count() for t in Table.objects.all()]
    assert counts == [5, 3]
    page = organiser.get(url(day, "balance/")).content.decode()
    assert "Done: Move" in page
    response = organiser.post(url(day, "balance/"), {"proposal": proposal["id"]})
    assert response.status_code == 400
    assert "unknown_proposal" in response.content.decode()
    assert_audit_ok(day.event)


def test_dealer_form_assigns_dealers(organiser: Client, day: Day) -> None:
    table = table_create(day=day, by=None)
    d1 = user_in("dealer", "dealer1")
    d2 = user_in("dealer", "dealer2")
    someone = User.objects.create_user("someone")
    page = organiser.get(url(day, "dealers/")).content.decode()
    assert "dealer1" in page and "dealer2" in page and "someone" not in page
    response = organiser.post(
        url(day, "dealers/"), {"form": "table", "table": table.pk, "dealers": [d1.pk, d2.pk]}
    )
    assert response.status_code == 302
    assert set(table.dealers.all()) == {d1, d2}
    page = organiser.get(url(day, "dealers/")).content.decode()
    assert page.count(" checked") == 2
    response = organiser.post(
        url(day, "dealers/"), {"form": "table", "table": table.pk, "dealers": [d1.pk, someone.pk]}
    )
    assert response.status_code == 400
    assert "not_a_dealer" in response.content.decode()
    assert set(table.dealers.all()) == {d1, d2}
    organiser.post(url(day, "dealers/"), {"form": "table", "table": table.pk})
    assert not table.dealers.exists()


def test_sheets_print_the_public_base_url_and_whole_pixel_codes(
    organiser: Client, day: Day, settings: Any
) -> None:
    """The address is BRAG_PUBLIC_BASE_URL's, not the request's; each code is drawn 3 px a
    module with its 4-module quiet zone (tests/organiser/test_sheets_browser.py decodes them)."""
    settings.BRAG_PUBLIC_BASE_URL = "https://hall.example.org:8443"
    organiser.post(url(day), {"form": "draw", "seed": "sheets"})
    organiser.post(
        url(day), {"form": "apply", "draw": SeatingDraw.objects.get().pk, "confirm": "yes"}
    )
    page = organiser.get(url(day, "sheets/")).content.decode()
    links = re.findall(r'<div class="link">([^<]+)</div>', page)
    assert len(links) == 8
    assert all(re.fullmatch(r"https://hall\.example\.org:8443/p/[^/]+/", u) for u in links)
    assert "testserver" not in page
    for link, size in zip(links, re.findall(r'<svg width="(\d+)" height="\1"', page), strict=True):
        modules = segno.make(link, micro=False).symbol_size(scale=1, border=4)[0]
        assert int(size) == 3 * modules
