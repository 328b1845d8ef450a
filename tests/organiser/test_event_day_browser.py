"""Issue 27's proof, in headless Chromium: an organiser runs a three-day FLASH event through the
console only (never the admin), in a time zone other than the server's (Asia/Tokyo, read on the
dashboard's clock). A messy file from a European Excel (its own headers, semicolons, Windows'
code page, bad and negative money, a stray quote) is previewed and confirmed; a second import is
undone; a player registered by mistake is removed; a floor supervisor is made for this event
only and refused on another event's page; every step that cannot be undone is asked once; the
dealers of day 1 are carried to day 2; the tables play through the API (the benchmark's tablet);
day 1's close draws the cut on the standings; every QR code on day 1's table sheets (screen and
print) is decoded from a screenshot by zxing-cpp and one address opened. The ledger audit
passes after every money step and at the end.

The steps are the other browser tests' own helpers (imported, not copied): each feature's
details are proven there; this module proves they hold together in one event."""

from __future__ import annotations

import re
from typing import Any

from django.core.cache import cache

from brag_event.events.models import Event
from brag_event.players.models import ImportBatch, Player, Qualification
from brag_event.tables.models import Seat
from tests.access.test_staff_browser import PASSWORD, console_sign_in
from tests.factories import assert_audit_ok
from tests.organiser.test_console_event_browser import Console, signed_in, staff
from tests.organiser.test_import_browser import MESSY, upload
from tests.organiser.test_sheets_browser import PUBLIC, decoded, players
from tests.public.test_time_zone_browser import hours

ZONE = "Asia/Tokyo"
# Imported, then undone: the wrong file.
WRONG_FILE = "Name;Starting Money\r\nLast Year One;1000\r\nLast Year Two;1000\r\n".encode("cp1252")
# The rest of the field, and Ian Fox, who is not playing this year.
MORE = "name,starting_money\nAnn Lee,1000\nBo Diaz,1000\nCy Hart,1000\nDi Moss,1000\n"
MORE += "Ed Vale,1000\nIan Fox,1000\n"


def test_an_organiser_runs_a_three_day_event_with_everything_through_the_console(
    transactional_db: Any, live_server: Any, chromium: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    cache.clear()
    settings.BRAG_PUBLIC_BASE_URL = PUBLIC  # the address the sheets' codes carry
    organiser = staff("organiser", "organiser")
    for k in (1, 2):
        staff(f"dealer{k}", "dealer")
    base = live_server.url
    page = signed_in(chromium, base, organiser)
    console = Console(page, base)
    visited: list[str] = []
    page.on("request", lambda request: visited.append(request.url))

    # ---- two events, set up on the console; this one in Tokyo's time
    console.go("/organiser/events/new/")
    flash = page.locator("#flash-form")
    flash.get_by_label("Event name").fill("Other Open")
    flash.get_by_label("Starting money of each player").fill("1000")
    flash.get_by_role("button", name="Create from FLASH").click()
    page.get_by_text("Other Open is set up with 3 days").wait_for()
    other = Event.objects.get(name="Other Open")
    console.go("/organiser/events/new/")
    flash = page.locator("#flash-form")
    flash.get_by_label("Event name").fill("Tokyo FLASH")
    flash.get_by_label("Date of day 1").fill("2027-03-05")
    flash.get_by_label("Starting money of each player").fill("1000")
    flash.get_by_label("Time zone").select_option(ZONE)
    flash.get_by_role("button", name="Create from FLASH").click()
    page.get_by_text("Tokyo FLASH is set up with 3 days, all scheduled.").wait_for()
    event = Event.objects.get(name="Tokyo FLASH")
    assert event.time_zone == ZONE
    console.event = event
    # The dashboard's clock is the event's, whatever the server's or the browser's zone.
    console.go(f"/organiser/events/{event.pk}/")
    found = re.fullmatch(
        r"Updated (\d\d:\d\d)(?::\d\d)? JST", page.locator("#live-updated").inner_text()
    )
    assert found and found.group(1) in hours(ZONE), page.locator("#live-updated").inner_text()

    # ---- the messy import: previewed (nothing registered yet), confirmed once
    players_path = f"/organiser/events/{event.pk}/players/"
    console.go(players_path)
    upload(page, "joueurs.csv", MESSY)
    how = page.locator("#how-read").inner_text()
    assert "Windows Western (cp1252)" in how and "separated by a semicolon" in how
    preview = page.locator("table.import-rows").inner_text()
    assert "because the starting money “abc” is not a whole number" in preview
    assert 'because a quote (") opened on this line is never closed' in preview
    assert not Player.objects.exists()
    page.get_by_role("button", name="Register 4 players").click()
    page.get_by_text("4 players registered.").wait_for()
    assert Player.objects.get(name="Zoë Müller").balance == 1000  # "1.000", read as Europe does
    assert_audit_ok(event)

    # ---- the wrong file imported, then undone (asked once)
    console.go(players_path)
    upload(page, "last-year.csv", WRONG_FILE)
    page.get_by_role("button", name="Register 2 players").click()
    page.get_by_text("2 players registered.").wait_for()
    page.get_by_role("link", name="Undo this import…").click()
    assert Player.objects.filter(name__startswith="Last Year", removed_at__isnull=True).count() == 2
    page.locator("#undo-form").get_by_role("button", name="Yes, undo the import").click()
    page.get_by_text("Import undone: 2 players withdrawn").wait_for()
    assert not Player.objects.filter(name__startswith="Last Year", removed_at__isnull=True).exists()
    assert list(ImportBatch.objects.values_list("status", flat=True).order_by("pk"))[1] == "undone"
    assert_audit_ok(event)

    # ---- the rest of the field, and a player registered by mistake removed
    console.go(players_path)
    page.get_by_label("Or paste it").fill(MORE)
    page.locator("#import-form").get_by_role("button", name="Preview the import").click()
    page.get_by_role("button", name="Register 6 players").click()
    page.get_by_text("6 players registered.").wait_for()
    console.go(players_path)
    page.get_by_role("link", name="Ian Fox").click()
    removal = page.locator("#remove-form")
    removal.get_by_label("Why (for the log)").fill("not playing this year")
    removal.get_by_role("button", name="Remove Ian Fox").click()
    page.locator("#remove-confirm").click()  # asked once
    page.get_by_text("Ian Fox is removed").wait_for()
    field = Player.objects.filter(event=event, removed_at__isnull=True)
    assert field.count() == 9 and not field.filter(name="Ian Fox").exists()
    assert_audit_ok(event)

    # ---- a floor supervisor for this event only: refused on the other event's pages
    console.go(f"/organiser/events/{event.pk}/staff/")
    page.get_by_label("Role").select_option(label="floor supervisor")
    page.get_by_label("User name (to sign in)").fill("sue")
    page.get_by_label("Full name").fill("Sue Supervisor")
    page.get_by_label("Password").first.fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.get_by_text("sue can sign in now").wait_for()
    sue_context = chromium.new_context(viewport={"width": 390, "height": 844})
    sue = sue_context.new_page()
    console_sign_in(sue, base, "sue", PASSWORD)
    sue.wait_for_url(f"**/organiser/events/{event.pk}/integrity/")
    refused = sue.goto(f"{base}/organiser/events/{other.pk}/integrity/")
    assert refused is not None and refused.status == 403
    expect(sue.get_by_role("heading", name="This is another event's page")).to_be_visible()
    sue_context.close()

    # ---- day 1: opened and seated (each asked once), dealers, the tables' sheets, play
    console.open_day(1)
    tables = console.seat_the_day(1)
    seated = sorted(Seat.objects.filter(table__day__number=1).values_list("player_id", flat=True))
    assert len(seated) == 9 and len(tables) == 2
    console.assign_dealers(1, tables)
    console.go(f"/organiser/days/{console.day(1).pk}/seating/sheets/")
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        texts = decoded(page, f"event-day-sheets-{media}")
        assert players(texts) == seated, (media, texts)
    page.emulate_media(media="screen")
    address = texts[0]
    page.goto(base + address.removeprefix(PUBLIC))
    who = Player.objects.get(pk=players([address])[0])
    expect(page.get_by_role("heading", level=1)).to_have_text(who.name)
    console.issue_tokens(len(tables))
    console.play_the_day(1, tables)

    # ---- day 1 closed (top 6); the standings draw the cut
    console.close_day(1, top=6)
    qualified = set(Qualification.objects.filter(day=console.day(2)).values_list("player_id"))
    assert len(qualified) >= 6
    console.go(f"/standings/{event.pk}/?day=1")
    cut = page.locator("table.board tr.cut-line")
    cut.wait_for()
    assert "qualified for day 2" in cut.inner_text()
    rows = page.locator("table.board tbody tr").all_inner_texts()
    line = next(i for i, t in enumerate(rows) if "cut" in t and "qualified for day 2" in t)
    assert all("qualified for day 2" in t for t in rows[:line])
    assert all("qualified for day 2" not in t for t in rows[line + 1 :])

    # ---- day 2: day 1's dealers carried to the same table numbers, saved as offered
    console.open_day(2)
    tables2 = console.seat_the_day(2)
    console.go(f"/organiser/days/{console.day(2).pk}/seating/dealers/")
    page.get_by_text("these are day 1's, at the same table numbers").wait_for()
    for k, table in enumerate(tables2):
        card = page.locator("fieldset.seat-card").nth(k)
        expect(card.get_by_label(f"dealer{table.number}")).to_be_checked()
    page.get_by_role("button", name="Save the dealers of every table").click()
    page.get_by_text("Dealers saved for day 2").wait_for()
    for table in tables2:
        assert list(table.dealers.values_list("username", flat=True)) == [f"dealer{table.number}"]
    console.play_the_day(2, tables2)
    console.close_day(2, top=4)

    # ---- day 3, the last: every player who can afford it stays in; the audit holds
    console.open_day(3)
    tables3 = console.seat_the_day(3)
    console.assign_dealers(3, tables3)
    console.play_the_day(3, tables3)
    console.close_day(3, top=None)
    assert [d.status for d in event.days.order_by("number")] == ["closed"] * 3
    console.go(f"/standings/{event.pk}/")
    page.locator("table.board").wait_for()
    assert page.locator("tr.cut-line").count() == 0  # the last day: no cut
    assert not [url for url in visited if "/admin/" in url]  # the console only
    assert_audit_ok(event)
    page.context.close()
