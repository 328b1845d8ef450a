"""Same-looking names told apart everywhere they appear (issue 43): two Harvey Prices of one
event (the organiser confirmed two people) are each said with their membership number by the
one helper (``players.selectors.event_names_shown``) on the draw, the issue-money list and the
audit's filter; a player removed as registered by mistake is on no list beside someone of their
name."""

from __future__ import annotations

import pytest

from brag_event.events.services import day_open, event_create_flash
from brag_event.organiser.audit_views import AuditLogQuery
from brag_event.organiser.forms import IssueMoneyForm
from brag_event.players.imports import player_remove
from brag_event.players.selectors import event_names_shown, name_apart
from brag_event.players.services import player_register
from brag_event.tables.seating import seating_draw

pytestmark = pytest.mark.django_db


def test_two_harvey_prices_are_told_apart_on_every_list() -> None:
    event = event_create_flash(name="Names", starting_money=1000, by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    first = player_register(event=event, name="Harvey Price", by=None)
    second = player_register(event=event, name="HARVEY  PRICE", look_alike_confirmed=True, by=None)
    ann = player_register(event=event, name="Ann Lee", by=None)
    mistake = player_register(event=event, name="Tom Jones", by=None)
    player_remove(player=mistake, reason="registered twice", by=None)
    tom = player_register(event=event, name="Tom Jones", by=None)
    one, two = first.person.number, second.person.number
    shown = event_names_shown(event.pk)
    assert shown[first.pk] == f"Harvey Price (no. {one})"
    assert shown[second.pk] == f"HARVEY PRICE (no. {two})"
    assert shown[ann.pk] == "Ann Lee" and shown[tom.pk] == "Tom Jones"
    # The draw: each Harvey Price with their number; the removed Tom Jones on neither list.
    draw = seating_draw(day=day, seed="abc", by=None)
    drawn = sorted(s["name"] for t in draw.plan for s in t["seats"])
    assert drawn == sorted(
        ["Ann Lee", f"Harvey Price (no. {one})", f"HARVEY PRICE (no. {two})", "Tom Jones"]
    )
    assert draw.excluded == []
    # The issue-money list and the audit's filter.
    issue = IssueMoneyForm(event=event)
    labels = [label for _value, label in issue.fields["player"].choices]  # type: ignore[attr-defined]
    assert f"Harvey Price (no. {one})" in labels and f"HARVEY PRICE (no. {two})" in labels
    assert labels.count("Tom Jones") == 1
    audit = AuditLogQuery(event=event)
    labels = [label for _value, label in audit.fields["player"].choices]  # type: ignore[attr-defined]
    assert f"Harvey Price (no. {one})" in labels and f"HARVEY PRICE (no. {two})" in labels
    assert "Tom Jones (removed)" in labels and "Tom Jones" in labels


def test_a_club_is_part_of_what_tells_two_same_names_apart_and_the_hall_keeps_it_whole() -> None:
    event = event_create_flash(name="Clubs", starting_money=1000, by=None)
    leeds = player_register(event=event, name="Vera Wang", group="Leeds", by=None)
    other = player_register(event=event, name="VERA  WANG", look_alike_confirmed=True, by=None)
    alone = player_register(event=event, name="Ann Lee", group="Leeds", by=None)
    shown = event_names_shown(event.pk)
    assert shown[leeds.pk] == f"Vera Wang (no. {leeds.person.number}, Leeds)"
    assert shown[other.pk] == f"VERA WANG (no. {other.person.number})"
    assert shown[alone.pk] == "Ann Lee"  # nobody to tell her from: her club is not said
    # The hall shortens a name but keeps what tells it apart whole: both parts found again.
    assert name_apart(shown[leeds.pk]) == ("Vera Wang", f"(no. {leeds.person.number}, Leeds)")
    assert name_apart(shown[other.pk]) == ("VERA WANG", f"(no. {other.person.number})")
    assert name_apart("Ann Lee") == ("Ann Lee", "")
