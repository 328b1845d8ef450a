"""The integrity monitor's per-dealer page, from the database: shifts give the hours, the hands a
dealer started and their entries give the pace, voids and misdeals are counted against them; a
dealer flagged on the figures is marked unusual in words. A screenshot at the console's size."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from brag_event.core.actors import Actor
from brag_event.floor.models import Misdeal
from brag_event.hands.models import Hand, HandAction
from brag_event.integrity.selectors import dealer_figures_of, dealer_paces
from brag_event.tables.models import DealerShift
from brag_event.tables.services import table_create
from brag_event.tables.shifts import shift_sign_in
from tests.browser import DOCS_SHOTS, shot
from tests.factories import act, signed_in, user_in, world


@pytest.mark.django_db
def test_the_figures_come_from_the_shifts_and_the_hands() -> None:
    w = world(3)
    maria = user_in("dealer", "maria")
    maria.first_name, maria.last_name = "Maria", "Lopez"
    maria.save()
    shift = shift_sign_in(table=w.table, by=Actor(user=maria))
    DealerShift.objects.filter(pk=shift.pk).update(started_at=shift.started_at - timedelta(hours=2))
    from brag_event.hands.services import hand_start

    for _ in range(3):
        hand = hand_start(table=w.table, by=Actor(user=maria))
        state = None
        while state is None or not state.is_settled:
            hand, state = act(hand, by=Actor(user=maria), seat=_to_act(hand), action="fold")
    pace = dealer_paces(w.event)[maria.pk]
    assert pace.hours is not None and 1.99 < pace.hours < 2.01
    # Two folds a hand (three players): one wait between them in each of the three hands.
    assert len(pace.gaps) == 3 and all(0 <= g < 60 for g in pace.gaps)
    [row] = dealer_figures_of(w.event, 0.001)
    assert row["dealer"] == "Maria Lopez" and row["hands"] == 3
    assert row["hands_per_hour"] == 1.5 and row["voids"] == 0 and row["misdeals"] == 0
    page = signed_in("supervisor", "boss").get(f"/organiser/events/{w.event.pk}/integrity/dealers/")
    text = page.content.decode()
    assert page.status_code == 200
    assert (
        "Maria Lopez" in text and "Hands an hour" in text and text.count("unusual</span>") == 1
    )  # the legend only


def _to_act(hand: Hand) -> int:
    from brag_event.hands.selectors import hand_state

    seat = hand_state(hand).to_act
    assert seat is not None
    return int(seat)


def busy_day() -> Any:
    """Four dealers' day written straight into the records (hands as settled rows, misdeals
    with their action): Ann deals as the others do but misdeals often, Lee is slow."""
    w = world(3)
    tables = [w.table] + [table_create(day=w.day, by=None) for _ in range(3)]
    now = timezone.now()
    plan = {"ann": (260, 10), "sam": (260, 1), "maria": (255, 0), "lee": (210, 1)}
    hours = {"ann": 8, "sam": 8, "maria": 8, "lee": 10}
    names = {"ann": "Ann Wu", "sam": "Sam Okafor", "maria": "Maria Lopez", "lee": "Lee Grant"}
    for (username, (hands, misdeals)), table in zip(plan.items(), tables, strict=True):
        first, last = names[username].split()
        dealer = user_in("dealer", username)
        dealer.first_name, dealer.last_name = first, last
        dealer.save()
        DealerShift.objects.create(
            dealer=dealer,
            table=table,
            day=w.day,
            started_at=now - timedelta(hours=hours[username]),
            ended_at=now,
            ended_how="signed_out",
        )
        made = Hand.objects.bulk_create(
            Hand(
                table=table,
                number=n + 1,
                dealer_seat=1,
                rules={},
                seats=[],
                status=Hand.Status.SETTLED,
                started_by=dealer,
            )
            for n in range(hands)
        )
        for hand in made[:misdeals]:
            action = HandAction.objects.create(hand=hand, seq=1, action="misdeal")
            Misdeal.objects.create(hand=hand, action=action, reason="cards exposed", refunds={})
    return w


@pytest.mark.browser
def test_the_dealers_page_marks_the_sloppy_and_the_slow(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    w = busy_day()
    rows = {r["dealer"]: r for r in dealer_figures_of(w.event, 0.001)}
    assert {n for n, r in rows.items() if any(f.flagged for f in r["tests"].values())} == {
        "Ann Wu",
        "Lee Grant",
    }
    User.objects.create_user("boss", password="boss-pw").groups.add(
        user_in("supervisor", "x").groups.get()
    )
    context = chromium.new_context(viewport={"width": 1366, "height": 768}, device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/organiser/login/")
        page.get_by_label("Username").fill("boss")
        page.get_by_label("Password").fill("boss-pw")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/organiser/events/{w.event.pk}/integrity/dealers/")
        table = page.locator("table.dealer-figures")
        expect(table.locator("tbody tr")).to_have_count(4)
        expect(page.get_by_text("Ann Wu: more misdeals than the other dealers")).to_be_visible()
        expect(page.get_by_text("Lee Grant: fewer hands an hour than the other")).to_be_visible()
        shot(page, "integrity-dealers-1366x768", folder=DOCS_SHOTS)
    finally:
        context.close()
