"""The organisers' pages: dashboard with alerts, registration and CSV import, tablet tokens, the
day close with its progress, and the exports."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from django.test import Client
from django.utils import timezone

from brag_event.api.models import DeviceToken, token_hash
from brag_event.engine.history import replay
from brag_event.events.models import DayClose
from brag_event.hands.models import Hand
from brag_event.ledger.models import LedgerCheck, Transfer
from brag_event.players.models import ImportBatch, Player
from tests.factories import played, signed_in, world

pytestmark = pytest.mark.django_db


def login(role: str) -> Client:
    return signed_in(role)


def test_only_organisers_get_in() -> None:
    w = world(3)
    url = f"/organiser/events/{w.event.pk}/"
    assert Client().get(url).status_code == 302  # to the login page
    for role in ("dealer", "supervisor", "nobody"):
        assert login(role).get(url).status_code == 403
    assert login("organiser").get(url).status_code == 200


def test_the_dashboard_shows_tables_money_and_raises_alerts() -> None:
    w = world(3, money=1000, buy_in=200)
    played(w)
    organiser = login("organiser")
    page = organiser.get(f"/organiser/events/{w.event.pk}/").content.decode()
    assert 'id="house">30 <small>MB</small>' in page  # three buy-in fees
    assert '<td class="num">600</td>' in page  # the money on table 1
    assert "Alerts" not in page
    # A table with players and no hand for 15 minutes, and a failed audit, raise alerts. The
    # dashboard is drawn at the start of the current minute (it is cached per minute), so
    # 21 minutes ago reads as 20 whole minutes.
    old = timezone.now() - dt.timedelta(minutes=21)
    Hand.objects.update(started_at=old, settled_at=old)
    w.table.__class__.objects.filter(pk=w.table.pk).update(created_at=old)
    LedgerCheck.objects.create(event=w.event, ok=False, lines=["[FAIL] a check"])
    page = organiser.get(f"/organiser/events/{w.event.pk}/").content.decode()
    assert "Table 1: no hand for 20 minutes." in page
    assert "FAILED" in page and "[FAIL] a check" in page
    # Running the audit now records a passing check.
    organiser.post(f"/organiser/events/{w.event.pk}/ledger-audit/")
    assert LedgerCheck.objects.latest().ok


def test_a_csv_import_is_previewed_then_confirmed_then_undone() -> None:
    w = world(2)
    organiser = login("organiser")
    players_url = f"/organiser/events/{w.event.pk}/players/"
    text = "Name,Starting Money\nZoe,500\nAndy,100\nYann,abc\nzoe,10\n,1000\nXavier,\n"
    preview = organiser.post(players_url, {"form": "import", "csv_text": text})
    assert preview.status_code == 302
    batch = ImportBatch.objects.get()
    assert preview["Location"] == f"/organiser/imports/{batch.pk}/"
    page = organiser.get(preview["Location"]).content.decode()
    assert Player.objects.count() == 2  # nothing registered by a preview
    for said in (
        "Check before importing",
        "will register",
        'looks the same as <strong class="wrap-anywhere">Andy</strong>, already registered',
        "because the starting money “abc” is not a whole number",
        "because the same name as line 2",
        "because no name on this row",
        "because no starting money on this row",
        "Register 2 players",
    ):
        assert said in page, said
    # Andy (line 3) asks: a look-alike of the registered Andy. Unanswered, nothing happens.
    unanswered = organiser.post(preview["Location"], {"form": "confirm"})
    assert unanswered.status_code == 400 and "Say for line 3 whether" in unanswered.content.decode()
    assert Player.objects.count() == 2
    done = organiser.post(preview["Location"], {"form": "confirm", "decide_3": "skip"})
    assert done.status_code == 302
    assert Player.objects.get(name="Zoe").balance == 500 and Player.objects.count() == 3
    again = organiser.post(preview["Location"], {"form": "confirm"})
    assert again.status_code == 409 and "imported already" in again.content.decode()
    assert Player.objects.count() == 3
    ask = organiser.get(f"{preview['Location']}?ask=undo").content.decode()
    assert "Undo this import?" in ask and "500 MB in all" in ask
    organiser.post(preview["Location"], {"form": "undo"})
    assert Player.objects.get(name="Zoe").removed_at is not None
    assert "Zoe" not in organiser.get(players_url).content.decode().split("Files imported")[0]
    bad = organiser.post(players_url, {"form": "import", "csv_text": "who\nx\n"})
    assert bad.status_code == 400
    assert "The first line must name the columns" in bad.content.decode()
    before = Player.objects.count()
    organiser.post(
        f"/organiser/events/{w.event.pk}/players/",
        {"form": "register", "name": "Vic", "starting_money": "40"},
    )
    assert Player.objects.count() == before + 1 and Player.objects.get(name="Vic").balance == 40
    vic = Player.objects.get(name="Vic")
    organiser.post(
        f"/organiser/events/{w.event.pk}/players/",
        {"form": "issue", "player": vic.pk, "amount": "60"},
    )
    vic.refresh_from_db()
    assert vic.balance == 100


def test_tablet_tokens_are_shown_once_and_revoked() -> None:
    organiser = login("organiser")
    dealer = User.objects.create_user("d1", password="x")
    page = organiser.post("/organiser/tokens/", {"name": "Table 1 tablet", "user": dealer.pk})
    key = page.context["issued"]["key"]
    token = DeviceToken.objects.get()
    assert (
        token.key_hash == token_hash(key)
        and key not in organiser.get("/organiser/tokens/").content.decode()
    )
    organiser.post(f"/organiser/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert not token.is_active


def test_closing_a_day_from_its_page(django_capture_on_commit_callbacks: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    played(w)
    organiser = login("organiser")
    url = f"/organiser/days/{w.day.pk}/close/"
    assert organiser.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(url, {"qualify_rule": "top", "qualify_top": "2", "confirm": "yes"})
    status = organiser.get(url + "status/").json()
    assert status["status"] == "done" and status["progress"] == 100
    assert status["report"]["qualified"] == 3  # the top 2, and the tie at the cut
    assert DayClose.objects.get().runs == 1
    w.day.refresh_from_db()
    assert (w.day.qualify_rule, w.day.qualify_top, w.day.is_open) == ("top", 2, False)


def streamed(response: Any) -> str:
    assert isinstance(response, StreamingHttpResponse)
    return b"".join(response.streaming_content).decode()  # type: ignore[arg-type]


def test_exports(settings: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    played(w)
    organiser = login("organiser")
    standings = organiser.get(f"/organiser/events/{w.event.pk}/standings.csv")
    rows = list(csv.reader(io.StringIO(streamed(standings))))
    assert rows[0][:3] == ["player_id", "rank", "name"] and rows[1][2] == "Bill"
    ledger = organiser.get(f"/organiser/events/{w.event.pk}/ledger.csv")
    lines = list(csv.reader(io.StringIO(streamed(ledger))))
    assert len(lines) == 1 + Transfer.objects.filter(event=w.event).count()
    hands = organiser.get(f"/organiser/days/{w.day.pk}/hands.jsonl")
    docs = [json.loads(x) for x in streamed(hands).splitlines()]
    # One hand, then the day's line with its root (tests/integrity/test_record.py verifies it)
    assert len(docs) == 2 and docs[0]["format"].startswith("brag-hh/1")
    assert docs[1]["format"] == "brag-day/3" and docs[1]["published"] is False
    state = replay(docs[0])
    assert state.outcome is not None and state.outcome.pots[0].winners == [2]
