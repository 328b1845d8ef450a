"""No answer of the console is kept by a browser or a proxy: every route of the organisers'
console, the floor's and the integrity monitor's pages (the URL configuration's, walked — none
left out), their exports among them, answers ``Cache-Control: no-store, private`` to a
signed-in organiser, whatever its status; the public pages keep their own caching."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.core.hostile import build_world, fill, routes

pytestmark = pytest.mark.django_db

CONSOLE = ("organiser:", "floor:", "integrity:")  # the namespaces served under /organiser/


def test_every_console_route_answers_no_store() -> None:
    w = build_world()
    organiser = Client()
    organiser.force_login(w.organiser)
    asked: dict[str, tuple[int, str]] = {}
    for route, name, pattern in routes():
        # The console's namespaces are exactly the routes under /organiser/.
        assert route.startswith("organiser/") == name.startswith(CONSOLE), (route, name)
        if not name.startswith(CONSOLE):
            continue
        url = fill(route, pattern, w.args)
        assert url is not None, f"{route}: a parameter the test's world has no value for"
        response = organiser.get(url)
        asked[url] = (response.status_code, response.get("Cache-Control", ""))
    kept = {
        name: said
        for name, said in asked.items()
        if not {"no-store", "private"} <= {p.strip() for p in said[1].split(",")}
    }
    assert not kept, kept
    shown = {url for url, (status, _) in asked.items() if status == 200}
    event, day = w.args["event_id"], w.args["day_id"]
    assert {
        f"/organiser/events/{event}/",
        f"/organiser/events/{event}/floor/",
        f"/organiser/events/{event}/standings.csv",
        f"/organiser/events/{event}/ledger.csv",
        f"/organiser/days/{day}/hands.jsonl",
    } <= shown


def test_signed_out_the_console_is_not_kept_and_the_public_pages_keep_their_caching() -> None:
    w = build_world()
    event = w.events[0].pk
    anybody = Client()
    refused = anybody.get(f"/organiser/events/{event}/ledger.csv")
    assert refused.status_code == 302 and "no-store" in refused["Cache-Control"]
    standings = anybody.get(f"/standings/{event}/")
    assert standings.status_code == 200 and "no-store" not in standings["Cache-Control"]
