"""The organisers' forms with the values the issue found answering 500: each is refused with a
message on its field, the page keeps what was typed, answers 400, and nothing changes (no
player, no transfer, no token, no rule)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client

from brag_event.api.models import DeviceToken
from brag_event.engine import MONEY_MAX
from brag_event.events.models import Day
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import SeatingDraw
from brag_event.tables.seating import seating_draw
from tests.factories import World, assert_audit_ok, signed_in, world

pytestmark = pytest.mark.django_db

BAD_NUMBERS = ["²", "abc", "7.5", "1e3", "0x10", "9" * 30, "-5", "١٢", "1_000", "+5"]


def organiser_client() -> Client:
    return signed_in("organiser", "org")


@pytest.fixture
def w() -> World:
    return world(2)


def counts() -> tuple[int, int, int]:
    return Player.objects.count(), Transfer.objects.count(), DeviceToken.objects.count()


def field_error(html: str, text: str) -> bool:
    return 'class="field invalid"' in html and text in html


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_issuing_a_bad_amount_is_refused_on_its_field(w: World, value: str) -> None:
    client = organiser_client()
    before = counts()
    url = f"/organiser/events/{w.event.pk}/players/"
    response = client.post(url, {"form": "issue", "player": w.players[0].pk, "amount": value})
    html = response.content.decode()
    assert response.status_code == 400
    assert (
        field_error(html, "digits 0–9")
        or field_error(html, "At most")
        or field_error(html, "At least")
    )
    assert f'value="{value}"' in html  # what was typed is kept
    assert counts() == before
    assert_audit_ok(w.event)


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_registering_with_bad_money_is_refused_and_the_name_kept(w: World, value: str) -> None:
    client = organiser_client()
    before = counts()
    response = client.post(
        f"/organiser/events/{w.event.pk}/players/",
        {"form": "register", "name": "Zed Zulu", "starting_money": value},
    )
    html = response.content.decode()
    assert response.status_code == 400 and field_error(html, "")
    assert 'value="Zed Zulu"' in html and f'value="{value}"' in html
    assert counts() == before


@pytest.mark.parametrize("value", [*BAD_NUMBERS, "abc", "", "-50"])
def test_a_registration_without_a_good_starting_money_is_refused(w: World, value: str) -> None:
    client = organiser_client()
    before = counts()
    response = client.post(
        f"/organiser/events/{w.event.pk}/players/",
        {"form": "register", "name": "Yves", "starting_money": value},
    )
    assert response.status_code == 400
    assert field_error(response.content.decode(), "")
    assert counts() == before


def test_the_registration_form_is_filled_with_the_events_starting_money(w: World) -> None:
    page = organiser_client().get(f"/organiser/events/{w.event.pk}/players/").content.decode()
    assert 'name="starting_money" value="1000"' in page
    assert "The event's starting money is 1000 MB." in page


def test_an_import_with_nothing_in_it_says_so(w: World) -> None:
    response = organiser_client().post(
        f"/organiser/events/{w.event.pk}/players/", {"form": "import", "csv_text": ""}
    )
    assert response.status_code == 400
    assert "Nothing to import: choose a CSV file or paste its lines" in response.content.decode()


def test_a_file_that_is_not_text_is_refused_on_its_field(w: World) -> None:
    upload = io.BytesIO(b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00")
    upload.name = "players.xlsx"
    response = organiser_client().post(
        f"/organiser/events/{w.event.pk}/players/", {"form": "import", "csv": upload}
    )
    assert response.status_code == 400
    assert field_error(response.content.decode(), "save the spreadsheet as CSV first")


def test_an_import_row_with_money_over_the_bound_is_refused_with_the_bound(w: World) -> None:
    text = f"name,starting_money\nAda,{MONEY_MAX + 1}\nBea,{'9' * 40}\nCy,²\nDi,5\n"
    response = organiser_client().post(
        f"/organiser/events/{w.event.pk}/players/",
        {"form": "import", "csv_text": text},
        follow=True,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Register 1 player?" in html
    assert html.count(f"is more than {MONEY_MAX:,}") == 2 and "is not a whole number" in html
    assert not Player.objects.filter(name__in=["Ada", "Bea", "Cy", "Di"]).exists()


@pytest.mark.parametrize("value", ["²", "abc", "", "7.5", "9" * 30, "0x10"])
def test_a_token_for_a_bad_user_is_refused(value: str) -> None:
    client = organiser_client()
    before = counts()
    response = client.post("/organiser/tokens/", {"name": "Tablet 9", "user": value})
    html = response.content.decode()
    assert response.status_code == 400 and 'class="field invalid"' in html
    assert 'value="Tablet 9"' in html
    assert counts() == before


@pytest.mark.parametrize("top", ["²", "abc", "", "7.5", "1e3", "0x10", "9" * 30, "0"])
def test_the_day_close_top_n_is_checked_before_anything_is_queued(w: World, top: str) -> None:
    response = organiser_client().post(
        f"/organiser/days/{w.day.pk}/close/", {"qualify_rule": "top", "qualify_top": top}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'class="field-error"' in html and f'value="{top}"' in html
    day = Day.objects.get(pk=w.day.pk)
    assert day.is_open and day.qualify_rule == "afford" and not hasattr(day, "closing")


@pytest.mark.parametrize("draw", ["²", "abc", "7.5", "9" * 30, "0x10", ""])
def test_seating_apply_with_a_bad_draw_changes_nothing(w: World, draw: str) -> None:
    seating_draw(day=w.day, seed="s", by=None)
    client = organiser_client()
    before = counts()
    response = client.post(f"/organiser/days/{w.day.pk}/seating/", {"form": "apply", "draw": draw})
    assert response.status_code == 400
    assert counts() == before and SeatingDraw.objects.get().applied_at is None
    response = client.get(f"/organiser/days/{w.day.pk}/seating/", {"draw": draw})
    assert response.status_code == (200 if draw == "" else 400)


@pytest.mark.parametrize("value", ["²", "abc", "7.5", "9" * 30])
def test_dealer_assignment_with_bad_ids_changes_nothing(w: World, value: str) -> None:
    client = organiser_client()
    url = f"/organiser/days/{w.day.pk}/seating/dealers/"
    assert client.post(url, {"form": "table", "table": value, "dealers": []}).status_code == 400
    response = client.post(url, {"form": "table", "table": w.table.pk, "dealers": [value]})
    assert response.status_code == 400 and "not_a_dealer" in response.content.decode()
    assert not w.table.dealers.exists()


@pytest.mark.parametrize("day", ["²", "abc", "7.5", "0x10", "9" * 30])
def test_the_standings_export_refuses_a_bad_day(w: World, day: str) -> None:
    response = organiser_client().get(f"/organiser/events/{w.event.pk}/standings.csv", {"day": day})
    assert response.status_code == 400


def test_a_player_named_like_a_formula_is_text_in_the_csv(w: World) -> None:
    for name in ('=HYPERLINK("http://evil.example","x")', "@SUM(1+1)", "+1+2", "-2+3", "-30"):
        player_register(event=w.event, name=name, starting_money=5, by=None)
    client = organiser_client()
    content = b"".join(
        client.get(f"/organiser/events/{w.event.pk}/standings.csv").streaming_content  # type: ignore[attr-defined]
    )
    rows = list(csv.reader(io.StringIO(content.decode())))
    names = {row[2] for row in rows[1:]}
    assert {
        '\'=HYPERLINK("http://evil.example","x")',
        "'@SUM(1+1)",
        "'+1+2",
        "'-2+3",
        "-30",  # a plain negative number stays a number
    } <= names
    ledger = b"".join(
        client.get(f"/organiser/events/{w.event.pk}/ledger.csv").streaming_content  # type: ignore[attr-defined]
    ).decode()
    for row in csv.reader(io.StringIO(ledger)):
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in row), row


def test_negative_numbers_in_the_csv_are_not_mangled(w: World, settings: Any) -> None:
    from brag_event.core.exports import spreadsheet_safe

    assert spreadsheet_safe(-30) == -30
    assert spreadsheet_safe("-30") == "-30"
    assert spreadsheet_safe("-2.5") == "-2.5"
    assert spreadsheet_safe("-2+3") == "'-2+3"
    assert spreadsheet_safe("\tcmd") == "'\tcmd"
    assert spreadsheet_safe("\r=1") == "'\r=1"
    assert spreadsheet_safe("Andy") == "Andy"
    assert spreadsheet_safe(None) is None
