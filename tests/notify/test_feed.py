"""The public feed: written from the floor's records, shown only after the organiser's delay
during play, never a card (not even one the table showed), answered by version like the
standings, and an entry taken down by an organiser (audited)."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from brag_event.audit.models import AuditEntry, Verb
from brag_event.closing.services import day_close_request
from brag_event.events.hall import announcement_post, announcement_remove
from brag_event.events.models import Announcement
from brag_event.notify.feed import (
    feed_entry_remove,
    feed_refresh,
    feed_settings_set,
    feed_shown,
)
from brag_event.notify.models import FeedEntry
from tests.factories import act, play_hand, played, start, world

pytestmark = pytest.mark.django_db

# A card as the floor writes it ("As", "10h"), or a hand's name: none may appear in the feed.
CARD = re.compile(r"\b(10|[2-9TJQKA])[shdc]\b|prial|flush|run\b|pair", re.IGNORECASE)


def seen_hand(w: Any) -> None:
    """Bill bets, Chris folds, Andy sees: both hands are shown at the table."""
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="look")
    act(hand, seat=1, action="see")
    act(hand, seat=2, action="show", cards="As Ks Qs")
    act(hand, seat=1, action="show", cards="2d 7c 9h")


def test_entries_wait_for_the_delay_and_never_name_a_card(commits: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    feed_settings_set(event=w.event, delay_minutes=10, big_pot=20, by=None)
    seen_hand(w)
    play_hand(w)
    feed_refresh(event_id=w.event.pk)
    pots = list(FeedEntry.objects.filter(kind="pot").order_by("pk"))
    assert len(pots) == 2
    assert pots[0].text.startswith("Day 1, table 1, hand 1: Bill wins a pot of")
    now = timezone.now()
    # During play, a pot waits ten minutes: not on the feed now, on it after.
    assert all(e.kind != "pot" for e in feed_shown(event_id=w.event.pk, now=now))
    later = now + datetime.timedelta(minutes=10, seconds=1)
    assert {e.pk for e in pots} <= {e.pk for e in feed_shown(event_id=w.event.pk, now=later)}
    for entry in FeedEntry.objects.all():
        assert not CARD.search(entry.text), entry.text
    # Written once: a second run writes nothing.
    assert feed_refresh(event_id=w.event.pk) == 0

    # The public answers, in words a follower reads, without the pots yet.
    client = Client()
    page = client.get(f"/standings/{w.event.pk}/feed/")
    assert page.status_code == 200 and b"Day 1 is under way." in page.content
    assert b"wins a pot" not in page.content
    atom = client.get(f"/standings/{w.event.pk}/feed.atom")
    assert atom["Content-Type"].startswith("application/atom+xml")
    assert b"Day 1 is under way." in atom.content
    document = json.loads(client.get(f"/standings/{w.event.pk}/feed.json").content)
    assert document["version"] == "https://jsonfeed.org/version/1.1"
    assert [i["content_text"] for i in document["items"]] == ["Day 1 is under way."]
    # The same version again: 304, nothing rendered.
    again = client.get(f"/standings/{w.event.pk}/feed/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304

    # The close: its top and cut, at once.
    announcement_post(event=w.event, text="Dinner at eight", by=None)
    with commits(execute=True):
        day_close_request(day=w.day, by=None)
    feed_refresh(event_id=w.event.pk)
    shown = [e.text for e in feed_shown(event_id=w.event.pk)]
    assert any(re.fullmatch(r"Day 1 is closed: \w+ on top; 3 qualified\.", t) for t in shown)
    assert "Dinner at eight" in shown
    # An announcement taken down from the hall leaves the feed too.
    said = Announcement.objects.get(text="Dinner at eight")
    announcement_remove(announcement=said, by=None)
    feed_refresh(event_id=w.event.pk)
    assert "Dinner at eight" not in [e.text for e in feed_shown(event_id=w.event.pk)]


def test_an_organiser_takes_an_entry_down(commits: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    feed_settings_set(event=w.event, delay_minutes=0, big_pot=1, by=None)
    played(w)
    feed_refresh(event_id=w.event.pk)
    pot = FeedEntry.objects.get(kind="pot")
    assert pot in feed_shown(event_id=w.event.pk)
    before = Client().get(f"/standings/{w.event.pk}/feed.json")
    feed_entry_remove(entry=pot, by=None)
    assert pot not in feed_shown(event_id=w.event.pk)
    after = Client().get(f"/standings/{w.event.pk}/feed.json", HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and b"wins a pot" not in after.content
    entry = AuditEntry.objects.get(verb=Verb.FEED_ENTRY_REMOVE)
    assert entry.data["text"] == pot.text
    with pytest.raises(Exception, match="already taken down"):
        feed_entry_remove(entry=pot, by=None)


def test_bad_settings_are_refused_in_words() -> None:
    w = world(2)
    with pytest.raises(Exception, match="0 to 240 minutes"):
        feed_settings_set(event=w.event, delay_minutes=241, big_pot=0, by=None)
    assert not AuditEntry.objects.filter(verb=Verb.FEED_SETTINGS).exists()
