"""Public reads served at the edge (issues 33 and 42): a real nginx, configured as
``deploy/nginx/brag-event.conf`` configures it, in front of a real gunicorn
(``deploy/gunicorn.conf.py``) on the test's PostgreSQL and Redis, one pair for the module. Repeated
reads of the standings reach Django once per version (gunicorn's access log: one 200, the rest
nginx's own or 304 revalidations), a settled hand shows within two seconds, players' pages are
never kept, signed-in and organisers' answers are never kept; once Django refuses an address
(a replaced link's 410, a removed event's 404) nginx serves no copy of the page; and neither
access log holds a player's link."""

from __future__ import annotations

import gzip
import io
import os
import re
import time
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.db import connection

from brag_event.demo.services import demo_load, demo_remove
from brag_event.players.links import player_link_reissue, player_path, player_token
from brag_event.players.models import Player
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
    # gunicorn's cache (Django's, in this Redis database) starts empty: the renderings an earlier
    # run kept are under the same ids (the test database is new each run) and versions, and
    # would be answered for this run's players and events.
    redis.Redis.from_url(REDIS).flushdb()
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
    # The public feed (page, Atom, JSON), kept as the standings are.
    for feed in ("feed/", "feed.atom", "feed.json"):
        path = f"/standings/{w.event.pk}/{feed}"
        for _ in range(10):
            status, headers, _body = call(nginx.base + path)
            assert status == 200
        assert headers["X-Cache-Status"] in ("HIT", "UPDATING", "REVALIDATED")
        assert web.requests(path).count(200) == 1, (path, web.requests(path))


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


def test_a_players_page_is_never_kept_by_nginx(site: tuple[World, Web, Nginx]) -> None:
    """Players' pages go to Django every time (one phone reads each: a kept copy would never
    be there for its next poll), each link to its own page, and nothing of them, nor their
    links' tokens, is written to nginx's cache on its disk."""
    w, web, nginx = site
    pages = {p.name: player_path(p) for p in w.players}
    for _ in range(3):
        for name, path in pages.items():
            status, headers, body = call(nginx.base + path)
            assert status == 200
            others = [n for n in pages if n != name]
            # Each page names its own player in its title; no other player's page is served.
            title = body.split(b"<title>", 1)[1].split(b"</title>", 1)[0]
            assert name.encode() in title and not any(o.encode() in title for o in others)
            assert "private" in headers["Cache-Control"]  # browsers and proxies keep it private
            assert headers.get("X-Cache-Status") is None  # not a cached address at all
    for path in pages.values():
        assert web.requests(path) == [200, 200, 200]
    tokens = [path.split("/")[2].encode() for path in pages.values()]
    for kept in (nginx.root / "cache-brag-event").rglob("*"):
        if kept.is_file():
            text = kept.read_bytes()
            assert b"/p/" not in text and not any(t in text for t in tokens), kept


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


def test_a_replaced_link_answers_410_through_nginx_at_once(
    site: tuple[World, Web, Nginx],
) -> None:
    """The issue's case: a phone polls its page through nginx, the link is replaced, and the
    old link answers 410 from the next read on (the issue: nginx served its kept copy, STALE,
    for as long as it was polled), while the new link opens the page."""
    w, web, nginx = site
    andy = w.players[0]
    path = player_path(andy)
    old = nginx.base + path
    # Polled (faster than a phone) for longer than nginx keeps a copy of anything: the page.
    assert {s for s, _ in polled(old, 1.5)} == {200}
    andy = player_link_reissue(player=andy, by=None)
    replaced = time.monotonic()
    took = refused_within([old], 410, 2.0)[old]
    assert took < 2.0
    status, _, body = call(old)
    assert status == 410 and b"This link has been replaced" in body and b"Andy" not in body
    # And it stays refused, every read answered by Django.
    seen = polled(old, 1.5)
    assert {s for s, _ in seen} == {410}
    assert web.requests(path).count(410) == len(seen) + 2, time.monotonic() - replaced
    status, _, body = call(nginx.base + player_path(andy))
    assert status == 200 and b"Andy" in body


def test_a_removed_events_addresses_answer_404_through_nginx_within_two_seconds(
    servers: tuple[Web, Nginx],
) -> None:
    """Every address nginx keeps, polled while it is a page, answers 404 once its event is gone
    (the demo's removal: its event, days and players) — the refresh's 404 replaces the kept
    page, nginx keeps the 404 as it kept the page, and serves it from then on."""
    web, nginx = servers
    summary = demo_load(hands=0, stdout=io.StringIO())
    event = summary["event"]
    player = Player.objects.filter(event_id=event).order_by("pk").first()
    assert player is not None
    paths = [
        f"/standings/{event}/",
        f"/standings/{event}/?day=1",
        f"/standings/{event}/?big=1",
        f"/standings/{event}/hall/",
        f"/api/v1/events/{event}/standings/",
        f"/api/v1/events/{event}/standings/?day=1",
    ]
    urls = [nginx.base + p for p in paths]
    # Polled until each page has been kept and refreshed at least once.
    seen: dict[str, set[str]] = {url: set() for url in urls}
    began = time.monotonic()
    while not all("HIT" in c and c & {"REVALIDATED", "STALE"} for c in seen.values()):
        assert time.monotonic() - began < 5, seen
        for url in urls:
            status, headers, _ = call(url)
            assert status == 200, url
            seen[url].add(headers["X-Cache-Status"])
        time.sleep(0.1)
    # An address read once, and not again until long after its copy is out of date.
    quiet = nginx.base + f"/standings/{event}/?day=1&big=1"
    assert call(quiet)[0] == 200
    demo_remove(stdout=io.StringIO())
    # A kept copy lives 1 to 2 s (nginx's clock counts whole seconds), then one refresh.
    took = refused_within(urls, 404, 2.5)
    assert max(took.values()) < 2.5, took
    after = time.monotonic()
    statuses, caches = set(), set()
    until = after + 2.5
    while time.monotonic() < until:
        for url in urls:
            status, headers, _ = call(url)
            statuses.add(status)
            caches.add(headers["X-Cache-Status"])
        time.sleep(0.1)
    assert statuses == {404}
    assert "HIT" in caches  # the 404 is kept as the page was
    for path in paths:
        refused = web.requests(path).count(404)
        assert 1 <= refused <= 2 + (time.monotonic() - after), (path, refused)
    assert call(nginx.base + player_path(player))[0] == 404
    # Its next read, 2.5 s on, is Django's 404 itself: no copy is served for having been kept.
    assert call(quiet)[0] == 404


# --------------------------------------------------------------------------- the logs


# A logged /p/ address: the token's payload and the rest masked, or the token masked.
MASKED = re.compile(r"/p/(?:[A-Za-z0-9_.-]+:)?\*\*\*(?=[/?\s\"]|$)")


def test_the_access_logs_name_no_players_link(site: tuple[World, Web, Nginx]) -> None:
    """nginx's and gunicorn's access logs write a player's link with all but its payload masked —
    in the address, and in the Referer of a request that came from the page — and so no
    token that opens a page is in either log."""
    w, web, nginx = site
    andy, bill = w.players[0], w.players[1]
    tokens = [player_token(andy), player_token(bill)]
    for token in tokens:
        assert call(f"{nginx.base}/p/{token}/")[0] == 200
    andy = player_link_reissue(player=andy, by=None)
    tokens.append(player_token(andy))
    assert call(f"{nginx.base}/p/{tokens[0]}/")[0] == 410
    assert call(f"{nginx.base}/p/{tokens[2]}/?utm=x")[0] == 200
    assert call(f"{nginx.base}/p/not-a-token/")[0] == 404
    escaped = tokens[1].replace(":", "%3A")  # a client that escapes the colon
    assert call(f"{nginx.base}/p/{escaped}/")[0] == 200
    # The requests a browser makes from the page say where they come from (whatever the page's
    # policy: an older browser, a client of its own).
    page = f"{nginx.base}/p/{tokens[1]}/"
    for path in ("/favicon.ico", f"/standings/{w.event.pk}/"):
        assert call(nginx.base + path, headers={"Referer": page})[0] in (200, 301)
    drained(web)
    logs = {
        "nginx": (nginx.root / "brag-event.access.log").read_text(),
        "gunicorn": web.access.read_text(),
    }
    payloads = [t.split(":")[0] for t in tokens]
    for name, log in logs.items():
        for token in tokens:
            signature = token.rsplit(":", 1)[1]  # <payload>:<when signed>:<signature>
            assert token not in log and signature not in log, name
        # Every /p/ address in the log is masked; the payloads say whose links were asked for.
        assert log.count("/p/") == len(MASKED.findall(log)), name
        assert all(f"/p/{payload}:***/" in log for payload in payloads), name
        assert "/p/***/" in log, name  # the made-up one and the escaped one: masked whole
    assert f'"{nginx.base}/p/{payloads[1]}:***/"' in logs["nginx"]  # the Referer
