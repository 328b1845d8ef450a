"""Each limit on what people type is worded one way, wherever it refuses: a player's name (80
characters) and a club or group (80), said by the service, the console's forms (a value even
over the field's own bound, which takes more than the limit to clean it), a line of a players'
file, the results file's reader, the API and the people pages. They once said "1 to 80
characters", "longer than 160" and Django's "Ensure this value has at most 240 characters"."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from brag_event.closing.exchange.reader import document_read
from brag_event.core.errors import ServiceError
from brag_event.core.words import at_most
from brag_event.players.csv_file import file_read
from brag_event.players.names import GROUP_MAX, GROUP_TOO_LONG, NAME_MAX, NAME_TOO_LONG
from brag_event.players.people import person_update
from brag_event.players.services import player_register
from tests.exchange_world import minimal_document
from tests.factories import signed_in, user_in, world

pytestmark = pytest.mark.django_db

# The one wording of each limit, and the other wordings it once had.
SAID = {"name": "is at most 80 characters", "club": "is at most 80 characters"}
NEVER = ("longer than", "1 to ", "Ensure this", "no more than", "must be")

JUST_OVER, FAR_OVER = "x" * 81, "x" * 300  # over the limit; over the forms' own bound too


def refusal(call: Callable[[], Any]) -> str:
    with pytest.raises(ServiceError) as err:
        call()
    return err.value.message


def csv_line(name: str, club: str) -> str:
    out = io.StringIO()
    csv.writer(out).writerows([("Name", "Money", "Club"), (name, 900, club)])
    (row,) = file_read(out.getvalue().encode()).rows
    return row.refused


def reader(person: dict[str, Any]) -> str:
    document = minimal_document()
    document["people"][0].update(person)
    return refusal(lambda: document_read(document))


def console(browser: Any, event: Any, field: str, value: str) -> str:
    page = browser.post(
        f"/organiser/events/{event.pk}/players/",
        {"form": "register", "name": "Asha Verma", "starting_money": "900", field: value},
    )
    assert page.status_code == 400
    errors = page.content.decode().split('class="field-error">')[1:]
    return " ".join(e.split("</span>")[0] for e in errors)


def api(client: APIClient, event: Any, field: str, value: str) -> str:
    body = {"name": "Asha Verma", "starting_money": 900, field: value}
    answer = client.post(f"/api/v1/events/{event.pk}/players/", body, format="json")
    assert answer.status_code == 400, answer.content
    return " ".join(answer.json()["error"]["details"]["fields"][field])


def test_the_limits_have_one_wording() -> None:
    assert at_most("A name", NAME_MAX) == NAME_TOO_LONG == "A name is at most 80 characters."
    assert GROUP_TOO_LONG == "A club or group is at most 80 characters." and GROUP_MAX == 80


def test_a_name_and_a_club_too_long_are_refused_in_the_same_words_everywhere() -> None:
    w = world(1)
    andy = w.players[0]
    browser = signed_in("organiser", "org")
    client = APIClient()
    client.force_authenticate(user_in("organiser", "api"))
    said: dict[str, str] = {
        "name: the service": refusal(
            lambda: player_register(event=w.event, name=JUST_OVER, starting_money=1, by=None)
        ),
        "name: the console": console(browser, w.event, "name", JUST_OVER),
        "name: the console, past the field's bound": console(browser, w.event, "name", FAR_OVER),
        "name: a players' file": csv_line(JUST_OVER, ""),
        "name: the results reader": reader({"name": JUST_OVER}),
        "name: the results reader, far over": reader({"name": FAR_OVER}),
        "name: the API": api(client, w.event, "name", FAR_OVER),
        "name: a person's page": refusal(
            lambda: person_update(person=andy.person, name=JUST_OVER, by=None)
        ),
        "club: the service": refusal(
            lambda: player_register(
                event=w.event, name="Bo", starting_money=1, group=JUST_OVER, by=None
            )
        ),
        "club: the console": console(browser, w.event, "group", JUST_OVER),
        "club: the console, past the field's bound": console(browser, w.event, "group", FAR_OVER),
        "club: a players' file": csv_line("Bo", JUST_OVER),
        "club: the results reader": reader({"club": JUST_OVER}),
        "club: the API": api(client, w.event, "club", FAR_OVER),
        "club: a person's page": refusal(
            lambda: person_update(person=andy.person, club=JUST_OVER, by=None)
        ),
    }
    wrong = {
        where: words
        for where, words in said.items()
        if SAID[where.split(":")[0]] not in words or any(n in words for n in NEVER)
    }
    assert not wrong, wrong
    # Where the sentence stands alone, it is the limit's own sentence, word for word.
    for where in ("the service", "the console", "the API", "a person's page"):
        assert said[f"name: {where}"] == NAME_TOO_LONG, where
        assert said[f"club: {where}"] == GROUP_TOO_LONG, where
