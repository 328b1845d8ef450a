"""The simulated event day of ``make bench-event``, driven by Locust (headless, as a library):
``python -m bench.event_load PLAN.json OUT.json``, run by ``bench.event`` in a process of its
own.

Users, each a Locust ``FastHttpUser`` doing what its page's script does:

* a **tablet** per table (``TabletUser``): its dealer enters random legal hands with a think
  time drawn from an exponential distribution of mean ``think`` seconds before every entry
  (actions, shown cards, starting a hand; a player who ran out leaves and buys in again), and
  the tablet re-reads its table with the ETag of the last read once what it has of the table
  is ``read_every`` seconds old (an entry's answer brings the table), as the tablet's
  ``static/tablet/table.js`` does;
* **phones** (``PhoneUser``): the standings page once, then the standings API every
  ``poll_every`` seconds after the previous answer, with its ETag (``static/public/standings.js``);
* **big screens** (``ScreenUser``): the same with ``?big=1``;
* **organisers' dashboards** (``DashboardUser``): the dashboard once, then its live part every
  ``poll_every`` seconds with its ETag (``static/organiser/dashboard.js``).

Every request goes out as nginx would pass it (``X-Forwarded-Proto: https``). Each one is
recorded from Locust's request event — its class, when it ended, Locust's response time, the
status and the CPU the server's worker spent on it (its ``Server-Timing`` header, from
``bench.event_timing``). The process prints ``WINDOW START`` after the warm-up and ``WINDOW
END`` after the timed seconds (the parent measures CPU at those moments), stops the users and
writes the samples to OUT.json."""

from __future__ import annotations

# Locust patches the standard library for gevent when it is imported, so it comes first.
import locust  # isort: skip

import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import gevent
from locust import FastHttpUser, constant, events, task
from locust.env import Environment

from bench.api_tablet import Dealer, error_code

API = "/api/v1"
OK = range(200, 300)
TIMING = re.compile(r"cpu;dur=([0-9.]+)")

PLAN: dict[str, Any] = {}
SAMPLES: list[list[Any]] = []  # [class, end (epoch s), ms, status, cpu ms or None, error]
COUNTERS = {"rebuys": 0, "settled": 0, "redraws": 0}
ANSWERS: list[bytes] = []  # an action's answer, for the reference endpoints


def headers(**extra: str) -> dict[str, str]:
    return {"X-Forwarded-Proto": "https", "Accept": "application/json", **extra}


@events.request.add_listener
def record(
    request_type: str,
    name: str,
    response_time: float,
    response_length: int,
    response: Any = None,
    exception: Any = None,
    start_time: float | None = None,
    **kwargs: Any,
) -> None:
    status = getattr(response, "status_code", 0) or 0
    cpu = None
    # A request that failed (the connection refused or cut) has a response without headers:
    # counted as an error below, never lost with the handler's exception.
    headers = getattr(response, "headers", None)
    if headers is not None:
        found = TIMING.search(headers.get("Server-Timing", "") or "")
        cpu = float(found.group(1)) if found else None
        # Answered from nginx's cache: its headers are the kept rendering's, Django spent
        # nothing on this one.
        if headers.get("X-Cache-Status", "") in ("HIT", "STALE", "UPDATING"):
            cpu = 0.0
    began = start_time if start_time is not None else time.time() - response_time / 1000
    error = "" if exception is None else type(exception).__name__
    SAMPLES.append([name, began + response_time / 1000, response_time, status, cpu, error])


class Polling(FastHttpUser):
    """The common part: one connection's worth of requests, with the ETag of the last answer."""

    abstract = True
    wait_time = constant(0)

    def fetch(self, path: str, name: str, etag: str | None = None, **extra: str) -> Any:
        hdrs = headers(**extra)
        if etag:
            hdrs["If-None-Match"] = etag
        with self.client.get(path, name=name, headers=hdrs, catch_response=True) as answer:
            if answer.status_code in OK or answer.status_code == 304:
                answer.success()
            else:
                answer.failure(f"HTTP {answer.status_code}")
            return answer


class PhoneUser(Polling):
    abstract = True  # made concrete with a count by main()
    page = "standings_page"
    name = "standings"
    query = ""

    @task
    def follow(self) -> None:
        every = PLAN["poll_every"]
        event = PLAN["event"]
        gevent.sleep(random.uniform(0, every))  # phones arrive at any moment
        self.fetch(f"/standings/{event}/{self.query}", self.page, Accept="text/html")
        etag = None
        api = f"{API}/events/{event}/standings/"
        while True:
            gevent.sleep(every)  # the page waits this long after each answer
            answer = self.fetch(api, self.name, etag)
            if answer.status_code == 200:
                etag = answer.headers.get("ETag")


class ScreenUser(PhoneUser):
    abstract = True
    page = "big_screen_page"
    name = "big_screen"
    query = "?big=1"


class AudienceUser(Polling):
    """A follower outside the hall (family, club, a stream's viewers): the standings API and the
    event's public feed (JSON) every ``poll_every`` seconds, each with its ETag, as a feed
    reader or a phone does."""

    abstract = True

    @task
    def follow(self) -> None:
        every = PLAN["poll_every"]
        api = f"{API}/events/{PLAN['event']}/standings/"
        feed = f"/standings/{PLAN['event']}/feed.json"
        gevent.sleep(random.uniform(0, every))
        etag = feed_etag = None
        while True:
            answer = self.fetch(api, "audience", etag)
            if answer.status_code == 200:
                etag = answer.headers.get("ETag")
            answer = self.fetch(feed, "audience_feed", feed_etag)
            if answer.status_code == 200:
                feed_etag = answer.headers.get("ETag")
            gevent.sleep(every)


class DashboardUser(Polling):
    abstract = True

    @task
    def watch(self) -> None:
        every = PLAN["poll_every"]
        event = PLAN["event"]
        cookie = f"sessionid={PLAN['organiser_session']}"
        gevent.sleep(random.uniform(0, every))
        self.fetch(f"/organiser/events/{event}/", "dashboard_page", Cookie=cookie)
        etag = None
        while True:
            gevent.sleep(every)
            live = f"/organiser/events/{event}/live/"
            answer = self.fetch(live, "dashboard", etag, Cookie=cookie)
            if answer.status_code == 200:
                etag = answer.headers.get("ETag")


class TabletUser(Polling):
    abstract = True

    def on_start(self) -> None:
        table = PLAN["tables"].pop()
        self.table_id = int(table["id"])
        self.dealer = Dealer(
            seats=PLAN["players"], ante=PLAN["ante"], seed=PLAN["seed"] * 1000 + table["number"]
        )
        self.auth = f"Token {table['token']}"
        self.table: dict[str, Any] | None = None
        self.hand: dict[str, Any] | None = None
        self.etag: str | None = None
        self.seen = 0.0  # when the table kept was last had from the server

    def call(self, name: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        hdrs = headers(Authorization=self.auth)
        payload = None
        if method == "POST":
            hdrs["Content-Type"] = "application/json"
            hdrs["Idempotency-Key"] = f"{self.table_id}-{time.time_ns()}-{random.random()}"
            payload = json.dumps(body if body is not None else {})
        with self.client.request(
            method, API + path, name=name, headers=hdrs, data=payload, catch_response=True
        ) as answer:
            status = answer.status_code
            data = None
            if answer.content and status != 304:
                try:
                    data = json.loads(answer.content)
                except ValueError:
                    data = None
            if status in OK or status == 304:
                answer.success()
            else:
                answer.failure(f"HTTP {status} {error_code(data)}")
            if name == "action" and status in OK and len(ANSWERS) < 50:
                ANSWERS.append(bytes(answer.content))
            return status, data

    def read(self, conditional: bool = True) -> None:
        """The tablet's refresh: the table with the ETag of the last read."""
        hdrs = headers(Authorization=self.auth)
        if conditional and self.etag:
            hdrs["If-None-Match"] = self.etag
        with self.client.get(
            f"{API}/tables/{self.table_id}/", name="table_read", headers=hdrs, catch_response=True
        ) as answer:
            if answer.status_code == 304:
                answer.success()
                return
            if answer.status_code != 200:
                answer.failure(f"HTTP {answer.status_code}")
                return
            answer.success()
            self.etag = answer.headers.get("ETag")
            self.table = json.loads(answer.content)
            self.hand = self.table["hand"]

    @task
    def play(self) -> None:
        think = PLAN["think"]
        every = PLAN["read_every"]
        rng = self.dealer.rng
        self.read(conditional=False)
        self.dealer.deal(self.hand)  # a table of the previous multiple may have a hand in play
        now = time.monotonic()
        self.seen = now - rng.uniform(0, every)
        next_entry = now + (rng.expovariate(1 / think) if think else 0)
        while True:
            # The table is read again once the copy kept is ``every`` old, as the tablet's
            # static/tablet/table.js does: an entry's answer that brings the table renews it.
            next_read = self.seen + every
            wake = min(next_read, next_entry)
            gevent.sleep(max(0.0, wake - time.monotonic()))
            if next_read <= next_entry:
                self.seen = time.monotonic()  # asked (one read per ``every`` at most)
                self.read()
                continue
            self.step()
            next_entry = time.monotonic() + (rng.expovariate(1 / think) if think else 0)

    def step(self) -> None:
        hand = self.hand
        if hand is None or hand["status"] != "in_progress":
            self.start_hand(hand)
            return
        _kind, path, body = self.dealer.next_entry(hand)
        status, data = self.call("action", "POST", path, body)
        if status in OK:
            self.hand = data["hand"]
            # The answer is also the table as its read answers it, with that read's ETag: kept,
            # as static/tablet/queue.js keeps it, so the next read is a 304.
            fresh = data.get("table") is not None and data.get("table_etag")
            if fresh:
                self.table, self.etag = data["table"], data["table_etag"]
                self.seen = time.monotonic()
            if self.hand is not None and self.hand["status"] != "in_progress":
                COUNTERS["settled"] += 1
                if not fresh:
                    self.read()  # a settled hand moved money back to the stacks: redraw
            return
        details = (data or {}).get("error", {}).get("details", {}) if isinstance(data, dict) else {}
        if status == 409 and isinstance(details.get("hand"), dict):
            self.hand = details["hand"]
            return
        COUNTERS["redraws"] += 1
        self.read(conditional=False)

    def start_hand(self, last: dict[str, Any] | None) -> None:
        if last is not None and self.dealer.needs_rebuy(last):
            self.rebuy()
        status, data = self.call("start", "POST", f"/tables/{self.table_id}/hands/")
        if status == 400 and error_code(data) == "not_enough_players":
            self.rebuy()
            status, data = self.call("start", "POST", f"/tables/{self.table_id}/hands/")
        if status in OK:
            # A start's answer is also the table with its new hand and that read's ETag (the
            # hand's own "table" is the table's id): kept, as static/tablet/queue.js keeps it.
            if data.get("table_state") is not None and data.get("table_etag"):
                self.table, self.etag = data["table_state"], data["table_etag"]
                self.seen = time.monotonic()
            self.hand = data
            self.dealer.deal()
        else:
            COUNTERS["redraws"] += 1
            self.read(conditional=False)

    def rebuy(self) -> None:
        """A player who has run out leaves and buys in again (the dealer's way)."""
        status, table = self.call("seat", "GET", f"/tables/{self.table_id}/")
        if status != 200:
            return
        for seat in table["seats"]:
            if seat["stack"] < PLAN["ante"]:
                self.call("seat", "POST", f"/seats/{seat['id']}/leave/")
                self.call(
                    "seat",
                    "POST",
                    f"/tables/{self.table_id}/seats/",
                    {
                        "seat": seat["number"],
                        "player": seat["player"]["id"],
                        "amount": PLAN["buy_in"],
                    },
                )
                COUNTERS["rebuys"] += 1


def main(argv: list[str]) -> int:
    plan_path, out_path = Path(argv[0]), Path(argv[1])
    PLAN.update(json.loads(plan_path.read_text()))
    random.seed(PLAN["seed"])
    counts = PLAN["counts"]
    classes: list[type[locust.User]] = []
    for base, count in (
        (TabletUser, counts["tablets"]),
        (PhoneUser, counts["phones"]),
        (ScreenUser, counts["screens"]),
        (DashboardUser, counts["dashboards"]),
        (AudienceUser, counts.get("audience", 0)),
    ):
        if count:
            classes.append(type(base.__name__, (base,), {"abstract": False, "fixed_count": count}))
    total = sum(counts.values())
    host = f"{PLAN.get('scheme', 'http')}://{PLAN['host']}:{PLAN['port']}"
    for cls in classes:
        cls.host = host  # type: ignore[attr-defined]
    env = Environment(user_classes=classes, events=events)
    runner = env.create_local_runner()
    runner.start(total, spawn_rate=max(1.0, total / PLAN["spawn_seconds"]))
    # The warm-up starts once the last user has started: while Locust is still starting users
    # its own event loop delays the answers it times (at ×2, 700 users took longer than the
    # warm-up, and the window's first seconds showed p99s of 13 s that nginx's log of the same
    # requests did not have: its longest answer was 0.6 s).
    began = time.time()
    if runner.spawning_greenlet is not None:
        runner.spawning_greenlet.join()
    print(f"SPAWNED {total} users in {time.time() - began:.1f} s", flush=True)
    gevent.sleep(PLAN["warmup"])
    print("WINDOW START", flush=True)
    t0 = time.time()
    gevent.sleep(PLAN["seconds"])
    t1 = time.time()
    print("WINDOW END", flush=True)
    runner.quit()
    answers = sorted(ANSWERS, key=len)
    out_path.write_text(
        json.dumps(
            {
                "t0": t0,
                "t1": t1,
                "users": counts,
                "samples": SAMPLES,
                "counters": COUNTERS,
                "answer": answers[len(answers) // 2].decode() if answers else "{}",
            }
        )
    )
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
