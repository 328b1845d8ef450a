"""A player's own page, reached by a signed link: seat, money, the day's chart, their hands."""

from __future__ import annotations

import re

import pytest
from django.db.models import Q
from django.test import Client

from brag_event.hands.models import Hand
from brag_event.ledger.models import Account, Transfer
from brag_event.players.links import player_link_reissue, player_path, player_token
from brag_event.players.models import Player
from brag_event.public.selectors import (
    hand_result_for,
    money_by_hand,
    money_chart,
    money_points,
    player_hands,
)
from tests.factories import World, act, start, world

pytestmark = pytest.mark.django_db


def play_a_see(w: World) -> Hand:
    """Antes 5 each (pot 15); Bill bets 10, Chris folds, Andy bets 10, Bill sees for 20 and
    shows the better hand: Bill takes 55 (net +20), Andy lost 15, Chris folded (−5)."""
    hand = start(w)  # dealer seat 1: seat 2 (Bill) speaks first
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="look")
    act(hand, seat=1, action="bet", amount=10)
    act(hand, seat=2, action="see", amount=20)
    act(hand, seat=1, action="show", cards="Kh Kd 4c")
    hand, _state = act(hand, seat=2, action="show", cards="Qs Js Ts")
    assert hand.status == Hand.Status.SETTLED
    return hand


def page(client: Client, player: Player) -> str:
    response = client.get(player_path(player))
    assert response.status_code == 200
    return response.content.decode()


def moves_today(player: Player) -> int:
    mine = Account.objects.filter(Q(player=player) | Q(seat__player=player))
    return (
        Transfer.objects.filter(Q(source__in=mine) | Q(target__in=mine))
        .exclude(kind="issue")
        .count()
    )


def test_a_signed_link_opens_the_page_and_a_tampered_one_is_404(client: Client) -> None:
    w = world(3)
    andy = w.players[0]
    html = page(client, andy)
    assert "<h1>Andy</h1>" in html
    assert "Table <strong>1</strong>, seat <strong>1</strong>" in html
    token = player_token(andy)
    assert client.get(f"/p/{token[:-2]}xx/").status_code == 404
    assert client.get("/p/not-a-token/").status_code == 404
    assert client.get(f"/p/{token}/").status_code == 200


def test_a_replaced_link_says_so_and_the_new_one_opens_the_page(client: Client) -> None:
    w = world(2)
    andy = w.players[0]
    old = player_path(andy)
    assert "<h1>Andy</h1>" in page(client, andy)  # and the answer is cached for Andy's page
    player_link_reissue(player=andy, by=None)
    andy.refresh_from_db()
    refused = client.get(old)
    assert refused.status_code == 410
    text = refused.content.decode()
    assert ">This link has been replaced</h1>" in text
    assert "Ask the organisers for your new one." in text
    assert "Andy" not in text and "Table" not in text  # nothing of the player's page
    assert player_path(andy) != old
    assert "<h1>Andy</h1>" in page(client, andy)


@pytest.mark.parametrize(
    ("answer", "status", "policy"),
    [
        ("the page", 200, "no-referrer"),
        ("the page again, unchanged", 304, "no-referrer"),
        ("a replaced link", 410, "no-referrer"),
        ("the standings", 200, "same-origin"),
    ],
)
def test_a_players_page_sends_no_referer(
    client: Client, answer: str, status: int, policy: str
) -> None:
    """A player's page has its link's token in its address: what it asks for and the links
    followed from it send no Referer (the site's policy elsewhere: same-origin)."""
    w = world(2)
    andy = w.players[0]
    path = player_path(andy)
    first = client.get(path)
    assert first.status_code == 200
    if answer == "the page again, unchanged":
        got = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    elif answer == "a replaced link":
        player_link_reissue(player=andy, by=None)
        got = client.get(path)
    elif answer == "the standings":
        got = client.get(f"/standings/{w.event.pk}/")
    else:
        got = first
    assert got.status_code == status
    assert got["Referrer-Policy"] == policy


def test_seat_money_and_hands_with_what_each_won_or_lost(client: Client) -> None:
    w = world(3)
    hand = play_a_see(w)
    andy, bill, chris = w.players
    assert hand_result_for(hand, bill.pk) == {"outcome": "won", "seat": 2, "amount": 55, "net": 20}
    assert hand_result_for(hand, andy.pk) == {
        "outcome": "lost",
        "seat": 1,
        "amount": 15,
        "net": -15,
    }
    assert hand_result_for(hand, chris.pk)["outcome"] == "folded"
    assert hand_result_for(hand, chris.pk)["net"] == -5

    html = page(client, bill)
    assert "Table <strong>1</strong>, seat <strong>2</strong>" in html
    assert re.search(r'class="result">won 55<', html)
    assert "+20" in html
    # Bill: 1,000 − fee 10 = 790 off the table, 200 + 20 on it; the day began with 1,000.
    assert 'class="balance">790 MB' in html
    assert 'class="stack">220 MB' in html
    assert 'class="total">1,010 MB' in html
    assert 'class="change up">+10<' in html
    assert '<span class="played">1</span> played, <span class="won">1</span> won' in html

    html = page(client, andy)
    assert re.search(r'class="result">lost 15<', html)
    assert 'class="change down">\u221225<' in html  # fee 10, ante 5, bet 10
    assert re.search(r'class="result">folded<', page(client, chris))


def test_hands_are_listed_latest_first(client: Client) -> None:
    w = world(3)
    first = play_a_see(w)
    second = start(w)  # dealer 2: Chris speaks first
    act(second, seat=3, action="look")
    act(second, seat=3, action="bet", amount=5)
    act(second, seat=1, action="fold")
    act(second, seat=2, action="fold")  # Chris takes 20: the antes and his bet
    rows = player_hands(w.players[2])
    assert [r["id"] for r in rows] == [second.pk, first.pk]
    assert rows[0]["outcome"] == "won" and rows[0]["amount"] == 20 and rows[0]["net"] == 10
    html = page(client, w.players[2])
    assert html.index(f'data-hand="{second.pk}"') < html.index(f'data-hand="{first.pk}"')


def test_the_days_money_movements_are_all_counted(client: Client) -> None:
    w = world(3)
    play_a_see(w)
    for player in w.players:
        player.refresh_from_db()
        points = money_points(player, w.day)
        assert len(points) == moves_today(player) + 1
        assert points[0].kind == "start" and points[0].total == 1000
        seat = w.seat(w.players.index(player) + 1)
        assert points[-1].total == player.balance + seat.stack
    # Andy: fee, buy-in, ante, bet → 5 points; Bill adds the see and the pot → 7.
    assert len(money_points(w.players[0], w.day)) == 5
    assert len(money_points(w.players[1], w.day)) == 7
    assert [p.total for p in money_points(w.players[1], w.day)] == [
        1000,
        990,
        990,
        985,
        975,
        955,
        1010,
    ]


def test_the_chart_is_by_hand_with_axes_the_start_line_and_the_current_value(
    client: Client,
) -> None:
    """Plotted by hand, not by the clock (a burst of hands is not a vertical smear): the day's
    start, then one point per hand; money before a hand (the fee) counts in that hand."""
    w = world(3)
    play_a_see(w)
    second = start(w)  # Chris speaks first; Bill folds at once
    act(second, seat=3, action="look")
    act(second, seat=3, action="bet", amount=5)
    act(second, seat=1, action="fold")
    act(second, seat=2, action="fold")
    bill = w.players[1]
    by_hand = money_by_hand(money_points(bill, w.day))
    assert [(p.n, p.total) for p in by_hand] == [(0, 1000), (1, 1010), (2, 1005)]
    chart = money_chart(money_points(bill, w.day))
    assert [t["label"] for t in chart.x_ticks] == ["start", "1", "2"]
    xs = [d["x"] for d in chart.dots]
    assert xs == sorted(xs) and len(set(xs)) == 3  # evenly apart, by hand
    assert chart.now["total"] == 1005 and chart.start == 1000
    html = page(client, bill)
    svg = html[html.index('<svg id="money-chart"') : html.index("</svg>")]
    assert svg.count('class="point"') == 3
    assert "Hands played today" in svg and "Money (MB)" in svg
    assert 'class="start"' in svg and "start 1,000" in svg
    assert "now 1,005" in svg
    labels = re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', svg)
    assert "start" in labels and "2" in labels and any("," in v for v in labels)


def test_a_player_who_has_not_played_today_sees_no_chart(client: Client) -> None:
    from brag_event.players.services import player_register

    w = world(2)
    zed = player_register(event=w.event, name="Zed", starting_money=500, by=None)
    html = page(client, zed)
    assert "Not seated" in html and "No play today yet." in html and "No hands yet." in html
