"""The organiser's import in headless Chromium (issue 27): a messy file from a European Excel
(semicolons, Windows' code page, a stray quote, bad and negative money, a row without a name, a
name twice) uploaded, every row previewed, confirmed once, undone after being asked once; the
corrected file imported again; a player registered by mistake removed from their page. The
ledger audit passes after each money step. Screenshots of the preview and of the players page
at the console's two sizes go to ``docs/screenshots/``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.events.services import event_create_flash
from brag_event.players.models import ImportBatch, Player
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import assert_audit_ok

WIDE = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

MESSY = (
    "Nom du joueur;Starting Money;Téléphone\r\n"
    "Zoë Müller;1.000;0612\r\n"
    "José Núñez;1500;\r\n"
    "Ian Fox;abc;\r\n"
    "Jack Stone;-50;\r\n"
    ";1000;\r\n"
    '"Kim Day;900;\r\n'
    "Lou Ray;800;\r\n"
    "ZOË MÜLLER;700;\r\n"
    "Maximilian Oyelaran-Whitcombe;1 200;\r\n"
).encode("cp1252")

CORRECTED = (
    "Name;Starting Money\r\nZoë Müller;1000\r\nJosé Núñez;1500\r\nIan Fox;1000\r\n"
).encode("cp1252")


def signed_in(browser: Any, url: str, user: User, viewport: dict[str, int]) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def no_sideways_scroll(page: Any, viewport: dict[str, int]) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{page.url} is {width} px wide at {viewport['width']}"


def upload(page: Any, name: str, data: bytes) -> None:
    form = page.locator("#import-form")
    form.locator("input[type=file]").set_input_files(
        {"name": name, "mimeType": "text/csv", "buffer": data}
    )
    form.get_by_role("button", name="Preview the import").click()
    page.get_by_text("Check before importing").wait_for()


def test_an_organiser_imports_a_messy_file_undoes_it_and_removes_a_mistake(
    transactional_db: Any, live_server: Any, chromium: Any
) -> None:
    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    event = event_create_flash(name="FLASH 2027", starting_money=1000, by=None)
    players_url = f"{live_server.url}/organiser/events/{event.pk}/players/"
    page = signed_in(chromium, live_server.url, organiser, WIDE)

    # ---- the messy file: every row previewed, nothing registered yet
    page.goto(players_url)
    upload(page, "joueurs.csv", MESSY)
    assert not Player.objects.exists()
    how = page.locator("#how-read")
    assert "Windows Western (cp1252)" in how.inner_text()
    assert "separated by a semicolon" in how.inner_text()
    rows = page.locator("table.import-rows tbody tr")
    assert rows.count() == 9
    text = page.locator("table.import-rows").inner_text()
    for said in (
        "because the starting money “abc” is not a whole number",
        "because the starting money “-50” is negative",
        "because no name on this row",
        'because a quote (") opened on this line is never closed',
        "because the same name as line 2",
    ):
        assert said in text, said
    assert page.locator("tr.row-ok").count() == 4  # Zoë, José, Lou (after the quote), Maximilian
    no_sideways_scroll(page, WIDE)
    screenshot(page, "console-import-preview-1366", folder=DOCS_SHOTS)
    small = signed_in(chromium, live_server.url, organiser, PHONE)
    small.goto(page.url)
    no_sideways_scroll(small, PHONE)
    screenshot(small, "console-import-preview-390", folder=DOCS_SHOTS)

    # ---- one confirmation registers exactly what was previewed
    page.get_by_role("button", name="Register 4 players").click()
    page.get_by_text("4 players registered.").wait_for()
    balances = dict(Player.objects.values_list("name", "balance"))
    assert balances == {
        "Zoë Müller": 1000,
        "José Núñez": 1500,
        "Lou Ray": 800,
        "Maximilian Oyelaran-Whitcombe": 1200,
    }
    assert_audit_ok(event)

    # ---- undo, asked once with what will happen
    page.get_by_role("link", name="Undo this import…").click()
    asked = page.locator("#undo-form")
    assert "4 players are withdrawn" in asked.inner_text()
    assert "4500 MB in all" in asked.inner_text()
    asked.get_by_role("button", name="Yes, undo the import").click()
    page.get_by_text("Import undone: 4 players withdrawn").wait_for()
    assert not Player.objects.filter(removed_at__isnull=True).exists()
    assert set(Player.objects.values_list("balance", flat=True)) == {0}
    assert ImportBatch.objects.get().status == "undone"
    assert_audit_ok(event)

    # ---- the corrected file: the names are free again
    page.goto(players_url)
    upload(page, "joueurs-corrige.csv", CORRECTED)
    page.get_by_role("button", name="Register 3 players").click()
    page.get_by_text("3 players registered.").wait_for()
    assert_audit_ok(event)

    # ---- a player registered by mistake, removed from their page
    page.goto(players_url)
    page.get_by_role("link", name="Ian Fox").click()
    removal = page.locator("#remove-form")
    assert "their 1000 MB taken back" in removal.inner_text()
    no_sideways_scroll(page, WIDE)
    screenshot(page, "console-player-remove-1366", folder=DOCS_SHOTS)
    small.goto(page.url)
    no_sideways_scroll(small, PHONE)
    screenshot(small, "console-player-remove-390", folder=DOCS_SHOTS)
    removal.get_by_label("Why (for the log)").fill("not playing this year")
    removal.get_by_role("button", name="Remove Ian Fox").click()
    page.locator("#remove-confirm").click()  # asked once
    page.get_by_text("Ian Fox is removed").wait_for()
    assert page.get_by_text("removed as registered by mistake, 1000 MB taken back").count() == 1
    ian = Player.objects.get(name="Ian Fox")
    assert ian.removed_at is not None and ian.balance == 0
    assert_audit_ok(event)

    page.goto(players_url)
    assert page.get_by_role("link", name="Ian Fox").count() == 0
    assert page.locator("#imports tbody tr").count() == 2
    no_sideways_scroll(page, WIDE)
    screenshot(page, "console-players-1366", folder=DOCS_SHOTS)
    small.goto(players_url)
    no_sideways_scroll(small, PHONE)
    screenshot(small, "console-players-390", folder=DOCS_SHOTS)
