"""The player's settings page (what they hear), the unsubscribe page, and the console's hall
page: forms that keep what was typed, refuse bad input in words and change nothing then."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brag_event.audit.models import AuditEntry, Verb
from brag_event.notify.models import Contact, Kind, Notice
from brag_event.players.links import player_path
from tests.factories import signed_in, world

from .test_emails import real_smtp

pytestmark = pytest.mark.django_db


def test_a_player_chooses_what_they_hear_from_their_page() -> None:
    w = world(2)
    p = w.players[0]
    page = player_path(p) + "notices/"
    client = Client()
    answer = client.get(page)
    assert answer.status_code == 200 and b"What you hear" in answer.content
    assert answer["Cache-Control"] == "no-store"
    assert b"notices/" in client.get(player_path(p)).content  # linked from their page
    bad = client.post(page, {"form": "notices", "email": "not an address", "kinds": ["seat"]})
    assert bad.status_code == 400 and b"Enter a valid email address." in bad.content
    assert b'value="not an address"' in bad.content  # kept as typed
    assert not Contact.objects.exists()
    good = client.post(
        page, {"form": "notices", "email": "andy@example.org", "kinds": ["seat", "result"]}
    )
    assert good.status_code == 302
    contact = Contact.objects.get(player=p)
    assert (contact.email, contact.kinds) == ("andy@example.org", ["result", "seat"])
    audit = AuditEntry.objects.get(verb=Verb.NOTIFY_CONTACT)
    assert "andy@example.org" not in str(audit.data)  # the staff's log keeps no address
    unknown = client.post(page, {"form": "notices", "email": "", "kinds": ["cards"]})
    assert b"Select a valid choice" in unknown.content
    assert Contact.objects.get(player=p).kinds == ["result", "seat"]
    # Another's link, or a made-up one, opens nothing.
    assert client.get("/p/made-up/notices/").status_code == 404


def test_the_unsubscribe_page_asks_then_stops() -> None:
    w = world(1)
    contact = Contact.objects.create(player=w.players[0], email="a@example.org", kinds=["seat"])
    Notice.objects.create(
        player=w.players[0],
        channel="email",
        kind=Kind.SEAT,
        fact="f",
        version=1,
        subject="s",
        body="b",
    )
    url = f"/unsubscribe/{contact.unsubscribe_token}/"
    shown = Client().get(url)
    assert shown.status_code == 200 and b"Stop the emails" in shown.content
    contact.refresh_from_db()
    assert contact.email  # a look (a mail scanner following links) stops nothing
    done = Client(enforce_csrf_checks=True).post(url, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and b"no more emails" in done.content
    contact.refresh_from_db()
    assert contact.email == ""
    assert Notice.objects.get().status == Notice.Status.DROPPED
    assert Client().post("/unsubscribe/nothing/").status_code == 404


def test_the_console_sends_an_announcement_and_sets_the_feed(commits: Any) -> None:
    w = world(2)
    Contact.objects.create(player=w.players[0], email="a@example.org", kinds=["announcement"])
    Contact.objects.create(player=w.players[1], email="b@example.org", kinds=["seat"])
    client = signed_in("organiser")
    url = f"/organiser/events/{w.event.pk}/hall/"
    with real_smtp(None):
        page = client.get(url)
    assert (
        b"No mail server is set up, so no email is sent" in page.content
        and b"Public feed" in page.content
    )
    with real_smtp(None), commits(execute=True):
        told = client.post(url, {"form": "announce", "text": "Dinner at eight", "tell": "on"})
    assert told.status_code == 302
    (notice,) = Notice.objects.all()
    assert notice.player == w.players[0] and notice.body == "Dinner at eight"
    assert notice.status == Notice.Status.PENDING  # no mail server: it waits
    bad = client.post(url, {"form": "feed", "delay_minutes": "999", "big_pot": "50"})
    assert bad.status_code == 400 and b"less than or equal to 240" in bad.content
    assert not AuditEntry.objects.filter(verb=Verb.FEED_SETTINGS).exists()
    ok = client.post(url, {"form": "feed", "delay_minutes": "5", "big_pot": "50"})
    assert ok.status_code == 302
    assert AuditEntry.objects.filter(verb=Verb.FEED_SETTINGS).count() == 1
    with real_smtp(None):
        dashboard = client.get(f"/organiser/events/{w.event.pk}/")
    assert b"no mail server is set up" in dashboard.content


def test_the_pages_script_keeps_a_browsers_push_subscription() -> None:
    w = world(1)
    p = w.players[0]
    page = player_path(p) + "notices/"
    client = Client()
    keys = {"p256dh": "BPk" + "A" * 84, "auth": "c2VjcmV0c2VjcmV0MTIz"}
    kept = client.post(page, {"form": "push", "endpoint": "https://push.example/abc", **keys})
    assert kept.status_code == 204
    assert Contact.objects.get(player=p).push_endpoint == "https://push.example/abc"
    plain = client.post(page, {"form": "push", "endpoint": "http://push.example/abc", **keys})
    assert plain.status_code == 400 and b"push address cannot be used" in plain.content
    keyless = client.post(page, {"form": "push", "endpoint": "https://push.example/x"})
    assert keyless.status_code == 400 and b"came without its keys" in keyless.content
    assert Contact.objects.get(player=p).push_endpoint == "https://push.example/abc"
    stopped = client.post(page, {"form": "push", "endpoint": ""})
    assert stopped.status_code == 204 and Contact.objects.get(player=p).push_endpoint == ""
