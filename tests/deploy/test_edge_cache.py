"""Public reads served at the edge (issue 33): a real nginx, configured as
``deploy/nginx/brag-event.conf`` configures it, in front of a real gunicorn on the test's
PostgreSQL and Redis. Repeated reads of the standings reach Django once per version (gunicorn's
access log: one 200, the rest nginx's own or 304 revalidations), a settled hand shows within two
seconds, a player's page is never served to another link, and signed-in and organisers' answers
are never kept."""

from __future__ import annotations

import gzip
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from brag_event.players.links import player_path
from tests.factories import World, act, signed_in, start, world
from tests.worker import REDIS, database_url, redis_up, require

from .edge import Nginx, Web, call, nginx_binary

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[World, Web, Nginx]]:
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    require(redis_up(), f"no Redis at {REDIS}")
    require(nginx_binary() is not None, "needs nginx")
    w = world()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAG_", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="brag_event.settings",
        DJANGO_SECRET_KEY=settings.SECRET_KEY,  # the players' links are signed with it
        DATABASE_URL=database_url(),
        BRAG_CACHE_URL=REDIS,
        BRAG_CACHE_TIMEOUT="10",
        DJANGO_DEBUG="false",
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    web = Web(tmp_path, env)
    nginx = Nginx(tmp_path / "nginx", [web.port])
    try:
        web.start(workers=1)
        nginx.start()
        # Warm the worker (its first rendering of each kind takes seconds on a loaded
        # machine): addresses that the tests do not count.
        for path in (f"/standings/{w.event.pk}/", f"/api/v1/events/{w.event.pk}/standings/"):
            assert call(f"http://127.0.0.1:{web.port}{path}?day=1")[0] == 200
        yield w, web, nginx
    finally:
        nginx.stop()
        web.stop()


def test_the_standings_reach_django_once_per_version(site: tuple[World, Web, Nginx]) -> None:
    w, web, nginx = site
    for path in (f"/standings/{w.event.pk}/", f"/api/v1/events/{w.event.pk}/standings/"):
        began = time.monotonic()
        bodies, seen = set(), []
        for _ in range(40):
            status, headers, body = call(nginx.base + path)
            assert status == 200
            bodies.add(body)
            seen.append(headers["X-Cache-Status"])
            time.sleep(0.05)
        took = time.monotonic() - began
        assert len(bodies) == 1
        assert "HIT" in seen
        reached = web.requests(path)
        # One rendering for the version; otherwise at most a 304 revalidation a second.
        assert reached.count(200) == 1, reached
        assert set(reached) <= {200, 304}
        assert len(reached) <= 2 + took, (len(reached), took)
        # A browser that holds the ETag gets its 304 from nginx.
        etag = headers["ETag"]
        status, _, _ = call(nginx.base + path, headers={"If-None-Match": etag})
        assert status == 304
    # The hall's screen too.
    hall = f"/standings/{w.event.pk}/hall/"
    for _ in range(10):
        assert call(nginx.base + hall)[0] == 200
    assert web.requests(hall).count(200) == 1


def test_a_settled_hand_shows_within_two_seconds(site: tuple[World, Web, Nginx]) -> None:
    w, web, nginx = site
    path = f"/api/v1/events/{w.event.pk}/standings/"
    _, before, first = call(nginx.base + path)
    assert call(nginx.base + path)[2] == first
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # settled: seat 2 wins
    settled = time.monotonic()
    while True:
        status, headers, body = call(nginx.base + path)
        assert status == 200
        if body != first:
            break
        assert time.monotonic() - settled < 2.0, "the settled hand is not shown after 2 s"
        time.sleep(0.05)
    assert headers["ETag"] != before["ETag"]
    assert web.requests(path).count(200) == 2


def test_a_players_page_is_never_served_to_another_link(site: tuple[World, Web, Nginx]) -> None:
    w, web, nginx = site
    pages = {p.name: player_path(p) for p in w.players}
    for _ in range(3):
        for name, path in pages.items():
            status, headers, body = call(nginx.base + path)
            assert status == 200
            others = [n for n in pages if n != name]
            assert name.encode() in body
            # Each page names its own player in its title; no other player's page is served.
            title = body.split(b"<title>", 1)[1].split(b"</title>", 1)[0]
            assert name.encode() in title and not any(o.encode() in title for o in others)
            assert "private" in headers["Cache-Control"]  # browsers and proxies keep it private
    for path in pages.values():
        assert web.requests(path).count(200) == 1


def test_signed_in_and_organisers_answers_are_never_kept(site: tuple[World, Web, Nginx]) -> None:
    w, web, nginx = site
    client = signed_in("organiser")
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    path = f"/standings/{w.event.pk}/"
    for _ in range(3):
        _, headers, _ = call(nginx.base + path, headers={"Cookie": cookie})
        assert headers["X-Cache-Status"] == "BYPASS"
    organiser = "/organiser/"
    for _ in range(3):
        status, headers, body = call(nginx.base + organiser, headers={"Cookie": cookie})
        assert status == 200 and b"FLASH" in body
        assert headers.get("X-Cache-Status") is None  # not a cached address at all
    assert web.requests(organiser).count(200) == 3
    # Nor is an answer that sets a cookie (the sign-in page's CSRF cookie).
    login = "/organiser/login/"
    for _ in range(2):
        status, headers, _ = call(nginx.base + login)
        assert status == 200 and headers.get("Set-Cookie")
    assert web.requests(login).count(200) == 2


def test_a_version_is_compressed_once_and_kept_compressed(site: tuple[World, Web, Nginx]) -> None:
    """Clients that take gzip get the copy Django compressed once (nginx keeps it and does not
    compress it again); clients that do not get the plain copy, kept apart; the two say the
    same thing, and revalidate to 304 from nginx with the ETag each got."""
    w, web, nginx = site
    path = f"/api/v1/events/{w.event.pk}/standings/"
    gz = {"Accept-Encoding": "br;q=1.0, gzip;q=0.8, *;q=0.1"}  # a browser's own words
    answers = [call(nginx.base + path, headers=gz) for _ in range(10)]
    assert {a[0] for a in answers} == {200}
    assert {a[1]["Content-Encoding"] for a in answers} == {"gzip"}
    assert "HIT" in {a[1]["X-Cache-Status"] for a in answers}
    packed = answers[-1][2]
    status, headers, plain = call(nginx.base + path)  # no Accept-Encoding
    assert status == 200 and headers.get("Content-Encoding") is None
    assert gzip.decompress(packed) == plain
    # Django compressed it once, and answered the plain copy once: two renderings' answers.
    reached = web.requests(path)
    assert reached.count(200) == 2, reached
    # The compressed copy's ETag (weak: the bytes differ from the plain one's) revalidates.
    status, _, _ = call(nginx.base + path, headers={**gz, "If-None-Match": answers[-1][1]["ETag"]})
    assert status == 304
