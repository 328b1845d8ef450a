"""The public standings page: overall and by day, the hall's big screen, and the API it polls."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from brag_event.players.services import player_register
from tests.factories import World, act, start, world

pytestmark = pytest.mark.django_db


def bill_wins_a_hand(w: World) -> None:
    hand = start(w)  # dealer 1: seat 2 first; antes 5 each
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # Bill wins 25


def names_in_order(html: str) -> list[str]:
    body = html[html.index('<tbody id="rows"') : html.index("</tbody>")]
    return re.findall(r'<th scope="row" class="name">([^<]+?)\s*(?:<span|</th>)', body)


def test_overall_rows_in_rank_order_with_money_table_and_change(client: Client) -> None:
    w = world(3)
    player_register(event=w.event, name="Zed", starting_money=990, by=None)
    bill_wins_a_hand(w)
    response = client.get(f"/standings/{w.event.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    # Those who have played today first, by money (the cut is made among them); Zed, richer
    # than two of them, has no hand yet today.
    assert names_in_order(html) == ["Bill", "Andy", "Chris", "Zed"]
    assert "1 with no hand yet today below" in html
    assert re.search(r'class="num money">1,000 <span class="at">table 1</span>', html)  # Bill
    assert re.search(r'class="num money">990</td>', html)  # Zed, not seated
    assert 'class="num change up">+0<' not in html
    assert 'class="num change down">\u221215<' in html  # Andy: fee 10, ante 5
    assert 'class="num change flat">0<' in html  # Zed has not played today
    assert 'aria-live="polite"' in html
    assert f'data-api="/api/v1/events/{w.event.pk}/standings/"' in html
    assert 'aria-current="page">Overall<' in html
    for number in (1, 2, 3):
        assert f'href="/standings/{w.event.pk}/?day={number}"' in html
    assert 'class="site-header"' in html and "big" not in html.split("<body", 1)[1][:80]


def test_one_days_figures(client: Client) -> None:
    w = world(3)
    bill_wins_a_hand(w)
    html = client.get(f"/standings/{w.event.pk}/?day=1").content.decode()
    assert names_in_order(html) == ["Bill", "Andy", "Chris"]
    assert 'aria-current="page">Day 1<' in html
    assert f'data-api="/api/v1/events/{w.event.pk}/standings/?day=1"' in html
    assert "Change on day 1" in html
    played = re.findall(r'class="num played">(\d+)<', html)
    won = re.findall(r'class="num won">(\d+)<', html)
    assert played == ["1", "1", "1"] and won == ["1", "0", "0"]
    day2 = client.get(f"/standings/{w.event.pk}/?day=2").content.decode()
    assert re.findall(r'class="num played">(\d+)<', day2) == ["0", "0", "0"]


def test_big_screen_mode_has_its_class_and_no_site_chrome(client: Client) -> None:
    w = world(3)
    html = client.get(f"/standings/{w.event.pk}/?big=1").content.decode()
    assert re.search(r'<body class="[^"]*\bbig\b', html)
    assert 'class="site-header"' not in html and 'class="site-footer"' not in html
    assert 'class="tabs"' not in html  # nobody touches the hall's screen: no tabs on it
    assert 'data-page-ms="15000"' in html and 'data-poll-ms="5000"' in html
    assert names_in_order(html) == ["Andy", "Bill", "Chris"]  # equal money: by name


def test_unknown_event_or_day_is_404_and_a_malformed_day_400(client: Client) -> None:
    w = world(2)
    assert client.get("/standings/999999/").status_code == 404
    assert client.get(f"/standings/{w.event.pk}/?day=9").status_code == 404
    for bad in ("x", "²", "1.0", "-1", "0x1"):
        response = client.get(f"/standings/{w.event.pk}/", {"day": bad})
        assert response.status_code == 400, bad
        assert "digits 0–9" in response.content.decode()


def test_the_api_the_page_polls(client: Client) -> None:
    w = world(3)
    bill_wins_a_hand(w)
    body = client.get(f"/api/v1/events/{w.event.pk}/standings/").json()
    assert {k: body[k] for k in ("event", "name", "currency", "day", "scope")} == {
        "event": w.event.pk,
        "name": w.event.name,
        "currency": "MB",
        "day": 1,
        "scope": "event",
    }
    first = body["standings"][0]
    assert set(first) == {
        "rank",
        "player",
        "name",
        "balance",
        "stack",
        "table",
        "total",
        "change",
        "hands_played",
        "hands_won",
        "disqualified",
        "standing",
        "note",
    }
    assert (first["name"], first["rank"], first["total"], first["table"]) == ("Bill", 1, 1000, 1)
    assert first["total"] == first["balance"] + first["stack"]
    day = client.get(f"/api/v1/events/{w.event.pk}/standings/?day=1").json()
    assert day["scope"] == "day" and [r["hands_won"] for r in day["standings"]] == [1, 0, 0]
