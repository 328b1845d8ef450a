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

from brag_event.players.links import player_link_reissue, player_path
from tests.factories import World, act, signed_in, start, world
from tests.worker import REDIS, database_url, redis_up, require

from .edge import Nginx, Web, call, nginx_binary

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(scope="module")
def servers(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: None
) -> Iterator[tuple[Web, Nginx]]:
    """One gunicorn (the deployed configuration, one worker) and nginx in front of it, for the
    module: each test reads addresses of its own (its event's, its players'), so neither the
    access log's counts nor nginx's cache carry over from one test to the next."""
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    require(redis_up(), f"no Redis at {REDIS}")
    require(nginx_binary() is not None, "needs nginx")
    root = tmp_path_factory.mktemp("edge")
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
    web = Web(root, env)
    nginx = Nginx(root / "nginx", [web.port])
    try:
        web.start(workers=1)
        nginx.start()
        yield web, nginx
    finally:
        nginx.stop()
        web.stop()


@pytest.fixture
def site(servers: tuple[Web, Nginx]) -> Iterator[tuple[World, Web, Nginx]]:
    web, nginx = servers
    w = world()
    # Warm the worker (its first rendering of each kind takes seconds on a loaded machine):
    # addresses that the tests do not count.
    for path in (f"/standings/{w.event.pk}/", f"/api/v1/events/{w.event.pk}/standings/"):
        assert call(f"http://127.0.0.1:{web.port}{path}?day=1")[0] == 200
    yield w, web, nginx
    drained(web)


def drained(web: Web) -> None:
    """Wait until gunicorn has answered every request it began (its one worker answers one at a
    time: its /healthz comes after them), so that none holds a lock when the test's database is
    flushed."""
    assert call(f"http://127.0.0.1:{web.port}/healthz")[0] == 200


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


# --------------------------------------------------------------------------- refusals


def polled(url: str, seconds: float, every: float = 0.1) -> list[tuple[int, str]]:
    """Read ``url`` every ``every`` s for ``seconds`` s, as phones and screens poll it: each
    answer's status and what nginx's cache did."""
    seen = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        status, headers, _ = call(url)
        seen.append((status, headers.get("X-Cache-Status", "")))
        time.sleep(every)
    return seen


def refused_within(urls: list[str], status: int, seconds: float) -> dict[str, float]:
    """Poll ``urls`` (every 0.1 s) until each answers ``status``; how long each took. Fails once
    one still answers its kept page after ``seconds``."""
    began = time.monotonic()
    took: dict[str, float] = {}
    while len(took) < len(urls):
        for url in urls:
            if url in took:
                continue
            got, headers, _ = call(url)
            if got == status:
                took[url] = time.monotonic() - began
            else:
                assert got == 200, (url, got)
                assert time.monotonic() - began < seconds, (
                    f"{url} still answers {got} {headers.get('X-Cache-Status')} "
                    f"{seconds} s after it was refused"
                )
        time.sleep(0.1)
    return took


def test_a_replaced_link_answers_410_through_nginx_within_two_seconds(
    site: tuple[World, Web, Nginx],
) -> None:
    """The issue's case: a phone polls the page, the link is replaced, and nginx stops serving
    its kept copy — the refresh's 410 replaces it — then keeps answering 410 (itself: gunicorn
    sees the old link at most once a second), while the new link opens the page."""
    w, web, nginx = site
    andy, bill = w.players[0], w.players[1]
    path = player_path(andy)
    old = nginx.base + path
    # Polled for longer than a kept copy lives: kept (HIT), then refreshed, always the page.
    seen = polled(old, 1.5)
    assert {s for s, _ in seen} == {200}
    assert "HIT" in {c for _, c in seen}
    assert {c for _, c in seen} & {"EXPIRED", "REVALIDATED", "STALE"}, seen  # refreshed
    # Bill's phone reads his page once and polls next after a while (here: just past the second
    # nginx keeps a copy).
    bill_old = nginx.base + player_path(bill)
    assert call(bill_old)[0] == 200
    andy = player_link_reissue(player=andy, by=None)
    bill = player_link_reissue(player=bill, by=None)
    took = refused_within([old], 410, 2.0)[old]
    assert took < 2.0
    # Bill's next poll is the 410 at once: no copy of his page is served once it is out of date.
    time.sleep(1.2)
    assert call(bill_old)[0] == 410
    status, _, body = call(old)
    assert status == 410 and b"This link has been replaced" in body and b"Andy" not in body
    # It stays refused past the kept 410's own second, answered by nginx.
    after = time.monotonic()
    seen = polled(old, 2.5)
    assert {s for s, _ in seen} == {410}
    assert "HIT" in {c for _, c in seen}
    reached = web.requests(path)
    assert reached.count(410) <= 2 + (time.monotonic() - after) + took, reached
    # The new links open the pages.
    for player in (andy, bill):
        status, _, body = call(nginx.base + player_path(player))
        assert status == 200 and player.name.encode() in body
