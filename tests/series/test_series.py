"""A series: the points table as typed, events added, and players ranked by points over the
events' final results, ties broken by countback; the console's pages, the public page and the
CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.errors import ServiceError
from brag_event.events.models import Event
from brag_event.organiser.audit_words import Names, audit_sentence
from brag_event.players.models import Person, Player
from brag_event.players.roster import player_rename
from brag_event.series.models import Series, SeriesEvent
from brag_event.series.points import points_parse
from brag_event.series.selectors import series_standings
from brag_event.series.services import (
    series_create,
    series_event_add,
    series_event_remove,
    series_points_set,
)
from tests.factories import refused, signed_in, world
from tests.scenarios import ends_by_a_concede, ends_by_a_see, finished

pytestmark = pytest.mark.django_db


def test_the_points_table_as_typed() -> None:
    assert points_parse("25, 18, 15,12 10") == [25, 18, 15, 12, 10]
    assert points_parse("3;2;1;0") == [3, 2, 1, 0]
    for text, code in (
        ("", "points_empty"),
        ("25, 18, x", "points_not_a_number"),
        ("25, -3", "points_not_a_number"),
        ("25, ²", "points_not_a_number"),  # a digit to Unicode, not a number to int()
        ("10, 12", "points_not_descending"),
        ("0, 0", "points_all_zero"),
        (", ".join(["1"] * 101), "points_too_many"),
    ):
        with pytest.raises(ServiceError) as err:
            points_parse(text)
        assert err.value.code == code, text
        assert err.value.message and "_" not in err.value.message


@pytest.fixture
def two_events(django_capture_on_commit_callbacks: Any) -> tuple[Event, Event]:
    """Spring: Bill sees Chris and wins (Bill 1st, Andy 2nd, Chris 3rd). Autumn: Bill gives up
    to Chris (Chris 1st, Andy 2nd, Bill 3rd)."""
    commits = django_capture_on_commit_callbacks
    return finished("Spring", ends_by_a_see, commits), finished(
        "Autumn", ends_by_a_concede, commits
    )


def ranking(series: Series) -> list[tuple[int, str, int]]:
    return [(r.rank, r.name, r.points) for r in series_standings(series).rows]


def test_a_series_of_two_events_ranked_by_points(two_events: tuple[Event, Event]) -> None:
    spring, autumn = two_events
    series = series_create(name="Brag League 2026", points=[10, 6, 4], by=None)
    series_event_add(series=series, event=spring, by=None)
    series_event_add(series=series, event=autumn, by=None)
    # Bill 10 + 4 and Chris 4 + 10 are equal, and equal on countback (a 1st and a 3rd each):
    # they share first place, listed by name; Andy 6 + 6 is third.
    assert ranking(series) == [(1, "Bill", 14), (1, "Chris", 14), (3, "Andy", 12)]
    standings = series_standings(series)
    bill = standings.rows[0]
    assert [(c["event"], c["place"], c["points"]) for c in bill.event_cells] == [
        ("Spring", 1, 10),
        ("Autumn", 3, 4),
    ]
    # Another table: all three on 10 points; countback puts a first place above two seconds.
    series = series_points_set(series=series, points=[10, 5, 0], by=None)
    assert ranking(series) == [(1, "Bill", 10), (1, "Chris", 10), (3, "Andy", 10)]
    # A third event not finished yet is listed and scores nothing.
    w = world(3, name="Winter")
    series_event_add(series=series, event=w.event, by=None)
    standings = series_standings(series)
    assert [c.final for c in standings.columns] == [True, True, False]
    assert ranking(series) == [(1, "Bill", 10), (1, "Chris", 10), (3, "Andy", 10)]
    # Taken out, then refused twice in words.
    series_event_remove(series=series, event=w.event, by=None)
    refused(
        "event_not_in_series", lambda: series_event_remove(series=series, event=w.event, by=None)
    )
    refused("event_in_series", lambda: series_event_add(series=series, event=spring, by=None))
    refused(
        "series_name_taken", lambda: series_create(name="brag league 2026", points=[1], by=None)
    )
    verbs = list(
        AuditEntry.objects.filter(verb__startswith="series.").values_list("verb", flat=True)
    )
    assert verbs.count(Verb.SERIES_CREATE) == 1 and verbs.count(Verb.SERIES_CHANGE) == 5
    # Each said in words on the audit log's page.
    entries = list(AuditEntry.objects.filter(verb__startswith="series.").order_by("pk"))
    said = [audit_sentence(e, Names(entries)) for e in entries]
    assert said[0] == "Series created; points by place: 10, 6 and 4."
    assert "Added to the series: Spring." in said and "Taken out of the series: Winter." in said
    assert "Series changed: points 10, 6, 4 → 10, 5, 0." in said


def test_the_public_page_and_the_csv(two_events: tuple[Event, Event]) -> None:
    series = series_create(name="Brag League 2026", points=[10, 6, 4], by=None)
    for event in two_events:
        series_event_add(series=series, event=event, by=None)
    html = Client().get(reverse("public:series", args=[series.pk])).content.decode()
    assert "Brag League 2026" in html and 'Spring: <span class="got">1st, 10 pts</span>' in html
    assert "countback" in html
    big = Client().get(reverse("public:series", args=[series.pk]) + "?big=1")
    assert big.status_code == 200 and b"download as CSV" not in big.content
    body = Client().get(reverse("public:series_csv", args=[series.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == [
        "rank",
        "player",
        "points",
        "Spring place",
        "Spring points",
        "Autumn place",
        "Autumn points",
    ]
    assert rows[1:] == [
        ["1", "Bill", "14", "1", "10", "3", "4"],
        ["1", "Chris", "14", "3", "4", "1", "10"],
        ["3", "Andy", "12", "2", "6", "2", "6"],
    ]


def test_the_console_makes_a_series_and_adds_events() -> None:
    spring = world(3, name="Spring").event
    client = signed_in("organiser")
    page = client.get(reverse("organiser:series"))
    assert page.status_code == 200
    # A points table that does not read is refused in place, with what was typed kept.
    bad = client.post(reverse("organiser:series"), {"name": "League", "points": "10, 12"})
    assert bad.status_code == 400 and "cannot score more than place 1" in bad.content.decode()
    assert 'value="10, 12"' in bad.content.decode() and not Series.objects.exists()
    made = client.post(reverse("organiser:series"), {"name": "League", "points": "10, 6, 4"})
    series = Series.objects.get()
    assert made["Location"] == reverse("organiser:series_detail", args=[series.pk])
    assert series.points == [10, 6, 4]
    url = reverse("organiser:series_detail", args=[series.pk])
    assert client.post(url, {"form": "add", "event": spring.pk}).status_code == 302
    assert SeriesEvent.objects.filter(series=series, event=spring).exists()
    again = client.post(url, {"form": "add", "event": spring.pk})
    assert again.status_code == 409 and "already in the series" in again.content.decode()
    assert client.post(url, {"form": "points", "points": "5, 3"}).status_code == 302
    series.refresh_from_db()
    assert series.points == [5, 3]
    html = client.get(url).content.decode()
    assert reverse("public:series", args=[series.pk]) in html and "Spring" in html
    assert client.post(url, {"form": "remove", "event": spring.pk}).status_code == 302
    assert not SeriesEvent.objects.exists()


def test_a_series_counts_people_not_spellings(django_capture_on_commit_callbacks: Any) -> None:
    """Andy is entered in Autumn as the same person under another spelling (“Andrew”): one
    row. Autumn's Bill is someone else who shares the name: two rows, told apart by number."""
    commits = django_capture_on_commit_callbacks
    spring = finished("Spring", ends_by_a_see, commits)
    autumn = finished("Autumn", ends_by_a_concede, commits)
    andy = Player.objects.get(event=autumn, name="Andy")
    player_rename(player=andy, name="Andrew", by=None)
    other_bill = Player.objects.get(event=autumn, name="Bill")
    Player.objects.filter(pk=other_bill.pk).update(person=Person.objects.create(name="Bill"))
    series = series_create(name="Brag League 2026", points=[10, 6, 4], by=None)
    series_event_add(series=series, event=spring, by=None)
    series_event_add(series=series, event=autumn, by=None)
    first_bill = Player.objects.get(event=spring, name="Bill").person
    second_bill = Person.objects.get(pk=Player.objects.get(pk=other_bill.pk).person_id)
    assert (
        Player.objects.get(pk=andy.pk).person_id
        == Player.objects.get(event=spring, name="Andy").person_id
    )
    assert ranking(series) == [
        (1, "Chris", 14),
        (2, "Andy", 12),
        (3, f"Bill (no. {first_bill.number})", 10),
        (4, f"Bill (no. {second_bill.number})", 4),
    ]
