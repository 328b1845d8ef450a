"""HTTP clients of the production run: a dealer's tablet that keeps going through faults, and an
organiser's browser session.

The tablet is the API benchmark's (``bench.api_tablet.Tablet``: random legal hands, cards
shown from a shuffled deck, leave-and-buy-in of players run out) with the retry rules of the
real tablet: every write has its own ``Idempotency-Key``, reused on every retry of that write;
a ``503 database_unavailable`` waits ``Retry-After`` and sends the same request again; a
connection cut before the answer (a gunicorn worker killed) is sent again on a new connection.
Every answer is recorded, so the test can tell exactly what the tablet believes was entered."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

from bench.api_tablet import API, Sample, Tablet, error_code

RETRY_FOR = 60.0  # seconds a tablet keeps retrying one request before it gives up


@dataclass(slots=True)
class Write:
    key: str
    method: str
    path: str
    body: Any
    status: int
    data: Any
    attempts: int
    replayed: bool


@dataclass
class Observed:
    """What a tablet saw, beyond what the benchmark's statistics keep."""

    answers: Counter[tuple[str, int, str]] = field(default_factory=Counter)
    writes: list[Write] = field(default_factory=list)
    resets: list[tuple[float, str]] = field(default_factory=list)  # (monotonic, error)
    unavailable: int = 0
    problems: list[str] = field(default_factory=list)


class ResilientTablet(Tablet):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seen = Observed()
        self.lock = threading.Lock()

    def call(self, kind: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = dict(self.headers)
        payload = None
        key = ""
        if method != "GET":
            key = f"t{self.table_id}-{uuid.uuid4().hex}"
            headers["Idempotency-Key"] = key
            payload = json.dumps(body if body is not None else {}).encode()
        t0 = time.perf_counter()
        give_up = time.monotonic() + RETRY_FOR
        attempts = 0
        while True:
            attempts += 1
            if time.monotonic() > give_up:
                raise RuntimeError(f"{method} {path}: no answer after {attempts - 1} attempts")
            try:
                self.conn.request(method, API + path, body=payload, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException) as err:
                # The connection went away before a whole answer came: the same request again.
                self.conn.close()
                with self.lock:
                    self.seen.resets.append((time.monotonic(), f"{type(err).__name__}: {err}"))
                time.sleep(0.05)
                continue
            status = response.status
            try:
                data = json.loads(raw) if raw else None
            except ValueError:
                data = None
                self.seen.problems.append(f"{method} {path}: {status}, not JSON: {raw[:200]!r}")
            code = error_code(data)
            self.seen.answers[(kind, status, code)] += 1
            if status >= 500:
                if status == 503 and code == "database_unavailable":
                    self.seen.unavailable += 1
                    retry_after = response.getheader("Retry-After")
                    if retry_after is None:
                        self.seen.problems.append(f"{method} {path}: 503 without Retry-After")
                    time.sleep(min(float(retry_after or 1), 1.0))
                else:
                    self.seen.problems.append(f"{method} {path}: {status} {code or raw[:300]!r}")
                    time.sleep(0.2)
                continue
            break
        end = time.perf_counter()
        ok = 200 <= status < 300
        self.stats.samples.append(Sample(kind, end, end - t0, status, "" if ok else code))
        if method != "GET":
            replayed = response.getheader("Idempotent-Replayed") == "true"
            write = Write(key, method, path, body, status, data, attempts, replayed)
            self.seen.writes.append(write)
        return status, data

    def play(self, *, at_least: int, stop: threading.Event) -> None:
        """Play whole hands: at least ``at_least``, then until ``stop``; always stops between
        hands, so the day can be closed afterwards. Anything unexpected ends the tablet and is
        reported in ``stats.failures``."""
        try:
            hand = self.expect("get", "GET", f"/tables/{self.table_id}/")["hand"]
            self.deal()
            while True:
                if hand is None or hand["status"] != "in_progress":
                    if len(self.stats.settled) >= at_least and stop.is_set():
                        return
                    hand = self.start_hand(hand)
                else:
                    hand = self.step(hand)
        except Exception as err:
            self.stats.failures.append(f"{type(err).__name__}: {err}")
        finally:
            self.conn.close()

    @property
    def hands_played(self) -> int:
        return len(self.stats.settled)


class Browser:
    """An organiser's browser: session and CSRF cookies, form posts and JSON."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, Any] | None = None,
        json_body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        sent = {"Accept": "application/json, text/html", "User-Agent": "production-run organiser"}
        sent.update(headers or {})
        payload: bytes | None = None
        if form is not None:
            payload = urllib.parse.urlencode(form, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        elif json_body is not None:
            payload = json.dumps(json_body).encode()
            sent["Content-Type"] = "application/json"
        if method != "GET" and "csrftoken" in self.cookies:
            sent["X-CSRFToken"] = self.cookies["csrftoken"]
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=payload, headers=sent)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            jar.load(value)
            for name, morsel in jar.items():
                self.cookies[name] = morsel.value
        return response.status, {k.lower(): v for k, v in response.getheaders()}, raw

    def json(self, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
        status, _, raw = self.request(method, path, json_body=body, headers=headers)
        return status, json.loads(raw) if raw else None

    def login(self, username: str, password: str) -> None:
        status, _ = self.json("GET", "/api/v1/auth/csrf/")
        assert status == 200, status
        status, data = self.json(
            "POST", "/api/v1/auth/login/", {"username": username, "password": password}
        )
        assert status == 200 and data["role"] == "organiser", (status, data)
