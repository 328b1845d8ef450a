"""The staff of one event, in headless Chromium: the event's organiser creates a dealer and a
floor supervisor for their event on the console's staff page; the supervisor signs in and is
refused on another event; the dealer signs in on a tablet and the staff page says so; one form
sets the dealers of every table of day 1, and day 2 is offered day 1's dealers; the dealer
switched off is refused at once. Screenshots of the staff and dealers pages at 1366×768 and
390×844 go to docs/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from brag_event.access.models import StaffRole
from brag_event.audit.models import AuditEntry
from brag_event.events.services import event_create_flash
from brag_event.tables.models import Table
from brag_event.tables.services import table_create
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import world

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
PASSWORD = "felt-green-table-7"


def overflow(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def both_sizes(page: Any, name: str) -> None:
    """Screenshots at the console's two sizes; the page never scrolls sideways."""
    for size, suffix in ((LAPTOP, "1366"), (PHONE, "390")):
        page.set_viewport_size(size)
        assert overflow(page) <= 0, (name, suffix, overflow(page))
        screenshot(page, f"{name}-{suffix}", folder=DOCS_SHOTS)
    page.set_viewport_size(LAPTOP)


def console_sign_in(page: Any, base: str, username: str, password: str) -> None:
    page.goto(base + "/organiser/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def test_an_organiser_staffs_their_event(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    cache.clear()
    w = world(3)
    event = w.event
    table2 = table_create(day=w.day, by=None)
    day2 = event.days.get(number=2)
    later = [Table.objects.create(day=day2, number=n) for n in (1, 2)]  # as a seating draw does
    other = event_create_flash(name="Other Open", by=None)
    boss = User.objects.create_user("boss", password=PASSWORD, first_name="Barbara")
    StaffRole.objects.create(user=boss, event=event, role="organiser")
    base = live_server.url

    context = chromium.new_context(viewport=LAPTOP)
    page = context.new_page()
    console_sign_in(page, base, "boss", PASSWORD)
    page.wait_for_url(f"**/organiser/events/{event.pk}/")
    page.get_by_role("link", name="Staff").click()
    expect(page.get_by_role("heading", name=f"Staff of {event.name}")).to_be_visible()

    # ---- a dealer and a floor supervisor, for this event
    for username, full, role in (
        ("dee", "Dee Dealer", "Dealer"),
        ("sue", "Sue Supervisor", "Floor supervisor"),
    ):
        page.get_by_label("Role").select_option(label=role.lower())
        page.get_by_label("User name (to sign in)").fill(username)
        page.get_by_label("Full name").fill(full)
        page.get_by_label("Password").first.fill(PASSWORD)
        page.get_by_role("button", name="Create the account").click()
        expect(page.get_by_text(f"{username} can sign in now")).to_be_visible()
    staff = dict(StaffRole.objects.filter(event=event).values_list("user__username", "role"))
    assert staff == {"boss": "organiser", "dee": "dealer", "sue": "supervisor"}
    assert AuditEntry.objects.filter(verb="staff.create", event=event).count() == 2

    # A weak password is refused on the form, nothing made.
    page.get_by_label("User name (to sign in)").fill("weak")
    page.get_by_label("Password").first.fill("1234")
    page.get_by_role("button", name="Create the account").click()
    expect(page.locator(".field-error").first).to_be_visible()
    assert not User.objects.filter(username="weak").exists()

    # ---- the dealers of day 1, every table in one form
    page.goto(base + f"/organiser/days/{w.day.pk}/seating/dealers/")
    page.locator("fieldset.seat-card").nth(0).get_by_label("Dee Dealer").check()
    page.get_by_role("button", name="Save the dealers of every table").click()
    expect(page.get_by_text("Dealers saved for day 1")).to_be_visible()
    assert list(w.table.dealers.values_list("username", flat=True)) == ["dee"]
    assert not table2.dealers.exists()

    # ---- day 2 is offered day 1's dealers at the same table numbers
    page.goto(base + f"/organiser/days/{day2.pk}/seating/dealers/")
    expect(page.get_by_text("these are day 1's, at the same table numbers")).to_be_visible()
    first = page.locator("fieldset.seat-card").nth(0).get_by_label("Dee Dealer")
    expect(first).to_be_checked()
    expect(page.locator("fieldset.seat-card").nth(1).get_by_label("Dee Dealer")).not_to_be_checked()
    both_sizes(page, "console-dealers-carried")
    page.get_by_role("button", name="Save the dealers of every table").click()
    expect(page.get_by_text("Dealers saved for day 2")).to_be_visible()
    assert list(later[0].dealers.values_list("username", flat=True)) == ["dee"]

    # ---- the supervisor signs in: their event's monitor, and refused on another event
    sue_context = chromium.new_context(viewport=PHONE)
    sue = sue_context.new_page()
    console_sign_in(sue, base, "sue", PASSWORD)
    sue.wait_for_url(f"**/organiser/events/{event.pk}/integrity/")
    response = sue.goto(base + f"/organiser/events/{other.pk}/integrity/")
    assert response is not None and response.status == 403
    expect(sue.get_by_role("heading", name="This is another event's page")).to_be_visible()
    assert overflow(sue) <= 0
    screenshot(sue, "console-refused-other-event-390", folder=DOCS_SHOTS)
    response = sue.goto(base + f"/organiser/events/{other.pk}/floor/")
    assert response is not None and response.status == 403
    api = sue.request.get(base + f"/api/v1/events/{other.pk}/floor-calls/")
    assert api.status == 403
    assert sue.request.get(base + f"/api/v1/events/{event.pk}/floor-calls/").status == 200

    # ---- the dealer signs in on a tablet; the staff page says who is signed in where
    tablet_context = chromium.new_context(
        viewport={"width": 1180, "height": 820},
        user_agent="Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    )
    tablet = tablet_context.new_page()
    tablet.goto(base + "/tablet/login/")
    tablet.get_by_label("User name").fill("dee")
    tablet.get_by_label("Password").fill(PASSWORD)
    tablet.get_by_role("button", name="Log in").click()
    tablet.wait_for_url("**/tablet/")
    expect(tablet.locator("#tables").get_by_text("Table 1")).to_be_visible()
    expect(tablet.locator("#tables")).not_to_contain_text("Other Open")
    assert tablet.request.get(base + f"/api/v1/tables/{w.table.pk}/").status == 200
    tablet.locator("#tables").get_by_text("Table 1").click()  # signs in to deal there
    expect(tablet.locator("#title")).to_contain_text("Table 1")
    # Sue signs in on a second browser too: still one line, saying two browsers.
    sue_again = chromium.new_context(viewport=PHONE)
    console_sign_in(sue_again.new_page(), base, "sue", PASSWORD)

    page.goto(base + f"/organiser/events/{event.pk}/staff/")
    signed_in = page.get_by_role("region", name="Signed in now")
    expect(signed_in.get_by_text("Safari on an iPad")).to_be_visible()
    expect(signed_in.get_by_text("sue", exact=True)).to_have_count(1)
    expect(signed_in.locator("li").filter(has_text="sue")).to_contain_text("on 2 browsers")
    dee_line = signed_in.locator("li").filter(has_text="dee")
    expect(dee_line).to_contain_text("deals at table 1")  # the dealers at tables come first
    expect(signed_in.locator("li").first).to_contain_text("dee")
    both_sizes(page, "console-staff")

    # ---- a password reset, then the dealer switched off: their tablet is refused at once
    row = page.locator("article.staff-card").filter(has_text="Sue Supervisor")
    row.get_by_text("Reset password").click()
    row.get_by_label("New password for sue").fill("a-new-long-password-3")
    row.get_by_role("button", name="Set the password").click()
    expect(page.get_by_text("sue's password is changed.")).to_be_visible()
    expect(signed_in.get_by_text("sue", exact=True)).to_have_count(0)  # signed out
    page.get_by_role("button", name="Switch off dee").click()
    expect(page.get_by_text("dee is switched off")).to_be_visible()
    assert tablet.request.get(base + f"/api/v1/tables/{w.table.pk}/").status in (401, 403)
    assert sue.request.get(base + f"/api/v1/events/{event.pk}/floor-calls/").status in (401, 403)
    verbs = set(AuditEntry.objects.filter(event=event).values_list("verb", flat=True))
    assert {"staff.create", "staff.password", "staff.deactivate", "table.dealers"} <= verbs
    both_sizes(page, "console-staff-switched-off")
    for c in (context, sue_context, tablet_context):
        c.close()
