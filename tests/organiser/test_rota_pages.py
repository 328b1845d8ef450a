"""The dealers' rota page: the form (checked field by field), the plan as a table of turns and
tables with the breaks, and, in a browser at the console's size, what the organiser sees."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from brag_event.audit.models import AuditEntry
from brag_event.tables.models import DealerRota
from brag_event.tables.services import table_create
from tests.browser import DOCS_SHOTS, shot
from tests.factories import World, signed_in, world

NAMES = (("maria", "Maria", "Lopez"), ("sam", "Sam", "Okafor"), ("ann", "Ann", "Wu"))


def floor_with_dealers(w: World) -> list[User]:
    table_create(day=w.day, by=None)
    group = Group.objects.get_or_create(name="dealer")[0]
    out = []
    for username, first, last in NAMES:
        user = User.objects.create_user(username, password="x", first_name=first, last_name=last)
        user.groups.add(group)
        out.append(user)
    w.table.dealers.add(out[1])
    return out


@pytest.mark.django_db
def test_the_rota_is_drawn_and_shown_as_turns_by_tables() -> None:
    w = world(3)
    maria, sam, ann = floor_with_dealers(w)
    organiser = signed_in("organiser", "org")
    url = f"/organiser/days/{w.day.pk}/seating/rota/"
    page = organiser.get(url).content.decode()
    assert "No rota yet for day 1" in page and "Maria Lopez" in page

    bad = organiser.post(
        url,
        {"starts_at": "2pm", "minutes": "5", "changes": "3", "dealers": [sam.pk]},
    )
    text = bad.content.decode()
    assert bad.status_code == 400
    assert "Say the time as hours and minutes" in text and "At least 10 minutes." in text
    few = organiser.post(
        url,
        {
            "starts_at": "14:00",
            "minutes": "30",
            "changes": "3",
            "dealers": [sam.pk],
        },
    )
    assert few.status_code == 400
    assert "2 tables need at least 2 dealers; 1 chosen." in few.content.decode()
    assert not DealerRota.objects.exists()

    done = organiser.post(
        url,
        {
            "starts_at": "14:00",
            "minutes": "30",
            "changes": "3",
            "dealers": [maria.pk, sam.pk, ann.pk],
        },
        follow=True,
    )
    page = done.content.decode()
    saved = "Rota saved: 3 dealers at 2 tables, moving on every 30 minutes from 14:00 "
    assert re.search(re.escape(saved) + r"(GMT|BST)\.", page), page  # the event's zone, named
    rota = DealerRota.objects.get()
    # Sam deals table 1 today: he goes first; then the others by name (Ann, Maria).
    assert rota.dealers == [sam.pk, ann.pk, maria.pk]
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:3]
    cells = [[c.split(">", 1)[1] for c in r.split("</t")[:-1] if ">" in c] for r in rows]
    assert [c[0].rsplit(">", 1)[-1] for c in cells] == ["14:00", "14:30", "15:00"]
    assert "Sam Okafor</" in rows[0] and "Maria Lopez</" in rows[1]
    assert "On a break" in page
    assert AuditEntry.objects.filter(verb="dealer.rota").count() == 1


@pytest.mark.browser
def test_the_rota_page_at_the_console_s_size(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    w = world(3)
    floor_with_dealers(w)
    table_create(day=w.day, by=None)
    extra = User.objects.create_user("lee", password="x", first_name="Lee", last_name="Grant")
    extra.groups.add(Group.objects.get(name="dealer"))
    User.objects.create_user("organiser", password="organiser-pw").groups.add(
        Group.objects.get_or_create(name="organiser")[0]
    )
    base = live_server.url
    context = chromium.new_context(viewport={"width": 1366, "height": 768}, device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(f"{base}/organiser/login/")
        page.get_by_label("Username").fill("organiser")
        page.get_by_label("Password").fill("organiser-pw")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{base}/organiser/events/{w.event.pk}/")
        page.goto(f"{base}/organiser/days/{w.day.pk}/seating/rota/")
        page.get_by_label("First turn at").fill("14:00")
        page.get_by_label("Each dealer moves on every (minutes)").fill("30")
        page.get_by_label("Turns").fill("8")
        for name in ("Maria Lopez", "Sam Okafor", "Ann Wu", "Lee Grant"):
            page.get_by_label(name).check()
        page.get_by_role("button", name="Save the rota").click()
        expect(page.get_by_role("status")).to_contain_text("Rota saved: 4 dealers at 3 tables")
        grid = page.locator("table.rota-grid")
        expect(grid.locator("tbody tr")).to_have_count(8)
        expect(grid.locator("thead th").nth(3)).to_have_text("Table 3")
        expect(grid.locator("tbody tr").first).to_contain_text("Sam Okafor")
        shot(page, "console-rota-1366x768", folder=DOCS_SHOTS, full_page=False)
        page.emulate_media(media="print")
        expect(page.get_by_role("button", name="Save the rota")).to_be_hidden()
        expect(grid).to_be_visible()
    finally:
        context.close()
