"""The large-pot amount (a day's ``award_confirm_from``) said, shown and changed during the day:
named in the copy question, shown in the set-up table, warned of within five antes, changed by
the organiser while the day is open (a form; in the change log, the audit log and the event's
money record), and an alert on the dashboard while a pot waits."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db.models import F

from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.actors import Actor
from brag_event.events.models import Day, DayRulesChange
from brag_event.floor.models import AwardConfirmation
from brag_event.floor.services import day_award_from_change
from brag_event.hands.services import hand_start
from brag_event.ledger.audit import ledger_audit
from brag_event.organiser.audit_words import Names, audit_sentence
from tests.factories import act, assert_audit_ok, refused, signed_in, user_in, world

pytestmark = pytest.mark.django_db


def words(response: object) -> str:
    html = response.content.decode()  # type: ignore[attr-defined]
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_the_organiser_changes_it_during_an_open_day_and_the_next_pot_follows() -> None:
    w = world(3)
    dealer = Actor(user_in("dealer", "dee"), "tablet 1")
    day_award_from_change(day=w.day, amount=20, reason="the ante went up", by=None)
    change = DayRulesChange.objects.get(day=w.day)
    assert change.after == {"award_confirm_from": 20} and change.record_seq is not None
    assert_audit_ok(w.event)
    # The next pot (25) waits.
    hand = hand_start(table=w.table, by=dealer)
    act(hand, by=dealer, seat=2, action="look")
    act(hand, by=dealer, seat=2, action="bet", amount=10)
    act(hand, by=dealer, seat=3, action="fold")
    act(hand, by=dealer, seat=1, action="fold")
    assert AwardConfirmation.objects.get(hand=hand).threshold == 20
    # The same amount again changes nothing; none is "never".
    day_award_from_change(day=w.day, amount=20, by=None)
    assert DayRulesChange.objects.filter(day=w.day).count() == 1
    day_award_from_change(day=w.day, amount=None, by=None)
    assert Day.objects.get(pk=w.day.pk).award_confirm_from is None
    entries = AuditEntry.objects.filter(verb=Verb.DAY_AWARD_FROM).order_by("id")
    assert [audit_sentence(e, Names([e])) for e in entries] == [
        "Pots waiting for a supervisor: from never to 20 (while the day was open). "
        "Why: the ante went up.",
        "Pots waiting for a supervisor: from 20 to never (while the day was open).",
    ]
    assert_audit_ok(w.event)


def test_changed_behind_the_services_the_record_names_it() -> None:
    w = world(3)
    day_award_from_change(day=w.day, amount=500, by=None)
    Day.objects.filter(pk=w.day.pk).update(award_confirm_from=F("ante") * 101)
    report = ledger_audit(event=w.event)
    assert not report.ok
    assert any(
        "day 1's large-pot amount is 500" not in line
        and "but the record's last change set it to 500: changed behind the services" in line
        for line in report.lines()
    ), report.lines()


def test_bad_amounts_and_closed_days_are_refused_in_words_with_nothing_changed() -> None:
    w = world(3)
    err = refused("invalid_rules", lambda: day_award_from_change(day=w.day, amount=0, by=None))
    assert "a whole amount from 1" in err.message
    later = w.event.days.get(number=3)
    Day.objects.filter(pk=later.pk).update(status=Day.Status.CLOSED)
    later.refresh_from_db()
    closed = refused("day_closed", lambda: day_award_from_change(day=later, amount=9, by=None))
    assert closed.message == "Day 3 is closed: its large-pot amount can no longer be changed."
    assert not DayRulesChange.objects.exists()
    assert not AuditEntry.objects.filter(verb=Verb.DAY_AWARD_FROM).exists()


def test_the_console_names_shows_warns_and_changes_it() -> None:
    w = world(3)
    organiser = signed_in("organiser")
    day3 = w.event.days.get(number=3)
    Day.objects.filter(pk=day3.pk).update(award_confirm_from=F("ante") * 4)
    day3.refresh_from_db()
    # The set-up table shows it, with the warning in words.
    setup = words(organiser.get(f"/organiser/events/{w.event.pk}/setup/"))
    assert "Large pot from" in setup
    assert (
        f"Day 3: Pots from {day3.ante * 4:,} wait for a supervisor, and the ante is "
        f"{day3.ante:,}: that is within 5 antes, so nearly every pot will wait." in setup
    )
    # The copy question names it.
    day2 = w.event.days.get(number=2)
    asked = organiser.post(f"/organiser/days/{day2.pk}/copy-rules/", {"confirm": ""})
    assert "and the large pot that waits for a supervisor: never)" in words(asked)
    # During the open day: a form.
    url = f"/organiser/days/{w.day.pk}/large-pot/"
    page = organiser.get(f"/organiser/days/{w.day.pk}/setup/")
    assert 'action="' + url + '"' in page.content.decode()
    bad = organiser.post(url, {"award_confirm_from": "0", "reason": ""})
    assert bad.status_code == 400 and "At least 1 (or leave it empty: never)." in words(bad)
    done = organiser.post(url, {"award_confirm_from": "400", "reason": "busy tables"})
    assert done.status_code == 302
    assert Day.objects.get(pk=w.day.pk).award_confirm_from == 400
    said = words(organiser.get(f"/organiser/days/{w.day.pk}/setup/"))
    assert "pots from 400 wait for a supervisor's confirmation from now on." in said
    assert signed_in("supervisor", "sue").post(url, {"award_confirm_from": "9"}).status_code == 403


def test_the_dashboard_alerts_while_a_pot_waits() -> None:
    w = world(3)
    dealer = Actor(user_in("dealer", "dee"), "tablet 1")
    day_award_from_change(day=w.day, amount=20, by=None)
    organiser = signed_in("organiser")
    url = f"/organiser/events/{w.event.pk}/"
    assert "waited for a supervisor" not in words(organiser.get(url))
    hand = hand_start(table=w.table, by=dealer)
    act(hand, by=dealer, seat=2, action="look")
    act(hand, by=dealer, seat=2, action="bet", amount=10)
    act(hand, by=dealer, seat=3, action="fold")
    act(hand, by=dealer, seat=1, action="fold")
    page = words(organiser.get(url))
    assert "Table 1: a pot of 25 has waited for a supervisor's confirmation since " in page
    assert "(hand 1); no next hand there until then. Confirm it on the floor board." in page
