"""The monitor's pages: who may see them (every role against every page), the flags in plain
words with links to the hands behind them, a hand as it was entered, and checking now."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brag_event.integrity import stats
from brag_event.integrity.models import IntegrityRun, RefusedEntry
from brag_event.integrity.services import integrity_run

from .conftest import Floor

pytestmark = pytest.mark.django_db

ROLES = ("organiser", "supervisor", "dealer1", "player", "nobody", "anonymous")
ALLOWED = {"organiser", "supervisor"}


def client(floor: Floor, role: str) -> Client:
    c = Client()
    if role != "anonymous":
        c.force_login(floor.users[role])
    return c


def pages(floor: Floor) -> dict[str, tuple[str, str]]:
    hand = floor.folded_hand()
    event = floor.world.event.pk
    return {
        "overview": ("get", f"/organiser/events/{event}/integrity/"),
        "run": ("post", f"/organiser/events/{event}/integrity/run/"),
        "hand": ("get", f"/organiser/hands/{hand.pk}/"),
        "dealers": ("get", f"/organiser/events/{event}/integrity/dealers/"),
    }


def test_every_role_against_every_page(floor: Floor) -> None:
    from brag_event.integrity import urls

    routes = pages(floor)
    assert set(routes) == {p.name for p in urls.urlpatterns}  # no page left out
    checked = 0
    for name, (method, url) in routes.items():
        for role in ROLES:
            response = getattr(client(floor, role), method)(url)
            if role == "anonymous":
                assert response.status_code == 302 and "/login/" in response["Location"], name
            elif role in ALLOWED:
                assert response.status_code in (200, 302), (name, role)
            else:
                assert response.status_code == 403, (name, role)
            checked += 1
    assert checked == len(routes) * len(ROLES)
    assert client(floor, "organiser").get(routes["run"][1]).status_code == 405


def test_the_page_explains_each_flag_and_links_the_hands(
    floor: Floor, monkeypatch: Any, settings: Any
) -> None:
    monkeypatch.setattr(stats, "MIN_DEALER_HANDS", 2)
    settings.BRAG_INTEGRITY_ALPHA = 0.2
    voided = [floor.folded_hand(by="dealer1", voided=True) for _ in range(6)]
    for _ in range(6):
        floor.folded_hand(by="dealer2")
    integrity_run(event=floor.world.event, by=None)
    page = (
        client(floor, "supervisor")
        .get(f"/organiser/events/{floor.world.event.pk}/integrity/")
        .content.decode()
    )
    assert "1 flag" in page and "dealer1" in page
    assert "dealer1 has 6 voided actions in 6 hands" in page and "What to do:" in page
    for hand in voided:
        assert f'href="/organiser/hands/{hand.pk}/"' in page
    assert "Dealers' mistakes per 100 hands" in page
    assert "Integrity of FLASH" in page  # a supervisor's own navigation
    organiser = (
        client(floor, "organiser")
        .get(f"/organiser/events/{floor.world.event.pk}/integrity/")
        .content.decode()
    )
    assert 'href="/organiser/events/' in organiser and ">Dashboard<" in organiser


def test_a_quiet_event_says_nothing_was_flagged(floor: Floor) -> None:
    event = floor.world.event.pk
    organiser = client(floor, "organiser")
    page = organiser.get(f"/organiser/events/{event}/integrity/").content.decode()
    assert "Not checked yet" in page
    floor.folded_hand()
    response = organiser.post(f"/organiser/events/{event}/integrity/run/")
    assert response.status_code == 302
    run = IntegrityRun.objects.get()
    assert run.trigger == "manual" and run.requested_by == floor.users["organiser"]
    page = organiser.get(response["Location"]).content.decode()
    assert "Checked 1 hand: nothing flagged." in page
    assert "Nothing flagged" in page


def test_the_hand_page_shows_what_was_entered_voided_shown_and_refused(floor: Floor) -> None:
    hand = floor.start()
    floor.act(hand, seat=2, action="look")
    floor.void(hand, reason="seat 3 looked, not seat 2")
    RefusedEntry.objects.create(
        table=floor.world.table,
        hand=hand,
        seq=2,
        action="bet",
        code="bet_below_min",
        status=400,
        message="too small",
        user=floor.users["dealer1"],
        device="token:t1",
    )
    hand.refresh_from_db()
    hand = floor.play_out(hand, "dealer1")
    page = client(floor, "supervisor").get(f"/organiser/hands/{hand.pk}/").content.decode()
    assert f"Hand {hand.number}" in page and "Dealt by <strong>dealer1</strong>" in page
    assert 'class="voided"' in page and "seat 3 looked, not seat 2" in page
    assert "bet_below_min" in page and "too small" in page
    assert "wins: everyone else folded" in page


def test_a_showdown_hand_shows_which_hands_were_blind(floor: Floor) -> None:
    hand = floor.showdown_hand()
    page = client(floor, "organiser").get(f"/organiser/hands/{hand.pk}/").content.decode()
    assert "Kh Qh Jh" in page and "running flush" in page
    assert page.count('<span class="tag">blind</span>') == 1


def test_the_organisers_dashboard_alerts_while_the_latest_run_has_flags(
    floor: Floor, monkeypatch: Any, settings: Any
) -> None:
    monkeypatch.setattr(stats, "MIN_DEALER_HANDS", 2)
    settings.BRAG_INTEGRITY_ALPHA = 0.2
    for _ in range(6):
        floor.folded_hand(by="dealer1", voided=True)
        floor.folded_hand(by="dealer2")
    url = f"/organiser/events/{floor.world.event.pk}/"
    organiser = client(floor, "organiser")
    assert "integrity monitor" not in organiser.get(url).content.decode()
    integrity_run(event=floor.world.event, by=None)
    page = organiser.get(url).content.decode()
    assert "The integrity monitor raised 1 flag: see Integrity." in page
    assert f'href="/organiser/events/{floor.world.event.pk}/integrity/"' in page
