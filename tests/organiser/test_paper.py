"""Results on paper: a closed day's results and the event's final results as a page and a
PDF (its text read back with pypdf), and a hand's history in words for the floor."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from brag_event.closing.services import day_close_request
from brag_event.engine import ACTIONS, Action
from brag_event.events.models import Day
from brag_event.floor.services import ruling_record
from brag_event.organiser.hand_words import hand_story, sentence
from brag_event.organiser.results import day_results, event_results
from brag_event.players.models import StandingSnapshot
from brag_event.players.services import player_register
from tests.factories import disqualify, signed_in, world
from tests.scenarios import ends_by_a_concede, ends_by_a_cover, ends_by_a_see, ends_by_folds

pytestmark = pytest.mark.django_db

ROOT = re.compile(r"[0-9a-f]{64}")


def pdf_text(body: bytes) -> str:
    reader = PdfReader(io.BytesIO(body))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    return " ".join(text.split())


@pytest.fixture
def closed(django_capture_on_commit_callbacks: Any) -> Any:
    """Day 1 of a four-player event, closed: Bill wins a hand, Dan is disqualified, Andy is
    warned, and Poor cannot afford day 2."""
    w = world(4, money=1000, buy_in=200)
    player_register(event=w.event, name="Poor", starting_money=50, by=None)
    ends_by_folds(w)
    ruling_record(
        table=w.table,
        what_happened="talked about a live hand",
        decision="a warning",
        players=[w.players[0].pk],
        penalty="warning",
        by=None,
    )
    disqualify(w.table, w.players[3])
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    w.day.refresh_from_db()
    assert w.day.status == Day.Status.CLOSED and w.day.record_root
    return w


def test_a_closed_days_results_rank_mark_the_cut_and_name_penalties_and_the_root(
    closed: Any,
) -> None:
    r = day_results(closed.day)
    assert r.ready
    names = [row["name"] for row in r.rows]
    assert names[0] == "Bill" and names[-1] == "Dan"  # the disqualified last, unranked
    assert r.rows[-1]["rank"] is None and r.disqualified == ["Dan"]
    assert {row["name"] for row in r.qualified} == {"Andy", "Bill", "Chris"}
    # The cut lies below the last qualifier: Poor (50) is under it.
    assert r.cut is not None and [row["name"] for row in r.rows[: r.cut["after"]]] == [
        "Bill",
        "Andy",
        "Chris",
    ]
    assert [(p["player"], p["kind"]) for p in r.penalties] == [
        ("Andy", "warning"),
        ("Dan", "disqualified"),
    ]
    (root,) = r.roots
    assert root.value == closed.day.record_root and root.hands == 1
    assert "verify" in root.command and root.value in root.command and "check" in root.verify
    # The money is the close's, not today's balances.
    bill = StandingSnapshot.objects.get(day=closed.day, player__name="Bill")
    assert r.rows[0]["total"] == bill.total


def test_the_days_results_pdf_lists_the_qualifiers_and_the_root(closed: Any) -> None:
    client = signed_in("organiser")
    response = client.get(reverse("organiser:results_day_pdf", args=[closed.day.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Results of day 1" in text and closed.event.name in text
    # The qualifiers, in their section.
    qualified = text.split("Qualified for day 2 (3)")[1].split("Penalties")[0]
    assert {n.strip() for n in qualified.split(",")} == {"Bill", "Andy", "Chris"}
    # The root, whole (a long value may be broken across lines: compare without spaces).
    assert closed.day.record_root in text.replace(" ", "")
    # How anyone checks it, in words; the command is for the technical reader, on screen only.
    assert "Anyone can check that nothing in day 1's record changed" in text
    assert "Checking a published root" in text and "python -m" not in text
    assert "talked about a live hand" in text and "Dan" in text


def test_the_results_page_says_the_check_in_words_and_folds_the_command_away(
    closed: Any,
) -> None:
    client = signed_in("organiser")
    html = client.get(reverse("organiser:results_day", args=[closed.day.pk])).content.decode()
    folded = re.search(r'<details class="check no-print">(.*?)</details>', html, re.S)
    assert folded, "no folded part for the technical reader"
    outside = html.replace(folded.group(0), "")
    assert "python -m" not in outside and "Anyone can check that nothing in day 1" in outside
    hands = reverse("organiser:export_hands", args=[closed.day.pk])
    assert "python -m brag_event.engine verify" in folded.group(1)
    assert f'href="{hands}"' in folded.group(1) and closed.day.record_root in folded.group(1)


def test_the_results_page_is_one_click_from_the_close_report_and_the_dashboard(
    closed: Any,
) -> None:
    client = signed_in("organiser")
    page = reverse("organiser:results_day", args=[closed.day.pk])
    pdf = reverse("organiser:results_day_pdf", args=[closed.day.pk])
    close = client.get(reverse("organiser:day_close", args=[closed.day.pk])).content.decode()
    assert f'href="{page}"' in close and f'href="{pdf}"' in close
    board = client.get(reverse("organiser:dashboard", args=[closed.event.pk])).content.decode()
    assert f'href="{page}"' in board
    html = client.get(page).content.decode()
    assert "Results of day 1" in html and closed.day.record_root in html
    assert f'href="{pdf}"' in html


def test_results_not_yet_closed_say_so_and_print_nothing() -> None:
    w = world(3)
    client = signed_in("organiser")
    html = client.get(reverse("organiser:results_day", args=[w.day.pk])).content.decode()
    assert "has not closed yet" in html and "Download as PDF" not in html
    response = client.get(reverse("organiser:results_day_pdf", args=[w.day.pk]), follow=True)
    assert response.redirect_chain == [(reverse("organiser:results_day", args=[w.day.pk]), 302)]
    assert b"has not closed yet" in response.content
    final = event_results(w.event)
    assert not final.ready and "last day, day 3" in final.waiting


def test_the_final_results_are_the_last_days_close_with_every_days_root(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tests.scenarios import days_played_and_closed

    w = world(3)
    ends_by_folds(w)
    days_played_and_closed(w, django_capture_on_commit_callbacks)
    r = event_results(w.event)
    assert r.ready and [root.day for root in r.roots] == [1, 2, 3]
    assert r.rows[0]["name"] == "Bill" and r.cut is None
    client = signed_in("organiser")
    text = pdf_text(client.get(reverse("organiser:results_event_pdf", args=[w.event.pk])).content)
    assert "Final results" in text
    for root in r.roots:
        assert root.value in text.replace(" ", "")


# ---------------------------------------------------------------- a hand's history in words


def test_every_action_has_its_sentence() -> None:
    w = world(3)
    from brag_event.hands.money import state_start
    from tests.factories import start

    state = state_start(start(w))
    for name in ACTIONS:
        seat = None if name in ("showdown", "misdeal") else 2
        who, words = sentence(state, Action(name, seat, 10, None, "As Kd 2c", "spilt drink"))
        # Its own sentence, never the stored key after the name (the fallback).
        assert words != f"{who} {name}".strip() and "_" not in words, (name, words)


def test_the_story_of_a_see_in_words() -> None:
    w = world(3)
    story = hand_story(ends_by_a_see(w))
    words = [line.words for line in story.lines]
    assert words == [
        "Bill (seat 2) looks",
        "Bill (seat 2) bets 10",
        "Chris (seat 3) looks",
        "Chris (seat 3) bets 10",
        "Andy (seat 1) folds",
        "Bill (seat 2) sees for 20",
        "Chris (seat 3) shows K♥ K♦ 4♣",
        "Bill (seat 2) shows A♠ A♦ 2♣",
    ]
    assert [line.pot for line in story.lines][-1] == 15 + 10 + 10 + 20
    assert story.settled and len(story.shown) == 2
    assert "Bill (seat 2) wins" in story.pots[0]


def test_a_blind_bet_a_cover_and_a_concede_in_words() -> None:
    w = world(3)
    hand = ends_by_folds(w)
    from tests.factories import act, start

    act(start(w), seat=3, action="bet", amount=5)  # Chris, blind
    blind = hand_story(w.table.hands.order_by("-number").first())  # type: ignore[arg-type]
    assert blind.lines[0].words == "Chris (seat 3) bets 5 blind" and blind.lines[0].stake == 10
    assert hand.pk != blind.hand.pk

    w2 = world(3, name="COVER", buy_in=90)
    cover = hand_story(ends_by_a_cover(w2))
    assert "Chris (seat 3) covers for 45" in [line.words for line in cover.lines]

    w3 = world(3, name="CONCEDE")
    conceded = hand_story(ends_by_a_concede(w3))
    words = [line.words for line in conceded.lines]
    assert words[-1] == "Bill (seat 2) gives up without showing"
    assert not any("Q♠" in x for x in words)  # the voided entry is not in the history
    assert conceded.conceded == ["Bill (seat 2)"] and len(conceded.shown) == 1


def test_the_words_are_the_tablets() -> None:
    """The sentences are the ones the tablet's queue shows for the same entries."""
    render = (Path(__file__).parents[2] / "static/tablet/render.js").read_text()
    for phrase in (
        '" folds"',
        '" sees for "',
        '" covers for "',
        '" bets "',
        '" blind"',
        '" looks"',
        '" looks at the "',
        '" throws in the "',
        '" keeps"',
        '" gives up without showing"',
    ):
        assert phrase in render, phrase


def test_the_hand_history_page_for_the_floor() -> None:
    w = world(3)
    hand = ends_by_a_see(w)
    client = signed_in("supervisor")
    html = client.get(reverse("floor:hand_history", args=[hand.pk])).content.decode()
    assert "Bill (seat 2) sees for 20" in html and "K♥ K♦ 4♣" in html
    assert "data-print" in html and "organiser/print.js" in html
    monitor = client.get(reverse("integrity:hand", args=[hand.pk])).content.decode()
    assert reverse("floor:hand_history", args=[hand.pk]) in monitor
    assert Client().get(reverse("floor:hand_history", args=[hand.pk])).status_code == 302
