"""A simulated dealer's tablet for the API benchmark: plays random legal hands at one table
through HTTP, the way a tablet would, and times every request.

Standard library only (``http.client`` with one persistent connection per tablet); the card
helpers come from the rules engine, which needs no Django.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from brag_event.engine import DECK, cards_str, parse_cards

API = "/api/v1"
STEP_CAP = 200  # actions in one hand before the tablet folds everyone to an end
MAX_ERRORS = 20  # unexpected answers in a row before a tablet gives up
RETRYABLE = (
    http.client.RemoteDisconnected,
    http.client.CannotSendRequest,
    http.client.ResponseNotReady,
    ConnectionResetError,
    ConnectionAbortedError,
    BrokenPipeError,
)


@dataclass(slots=True)
class Sample:
    """One timed request: what it was, when it ended (perf_counter), how long it took (s), its
    status and, for a non-2xx answer, the error code of the body."""

    kind: str  # action | cards | start | seat | get
    end: float
    seconds: float
    status: int
    code: str = ""


@dataclass
class TabletStats:
    samples: list[Sample] = field(default_factory=list)
    settled: list[tuple[float, int]] = field(default_factory=list)  # (when, actions)
    rebuys: int = 0
    retries: int = 0
    resyncs: int = 0
    failures: list[str] = field(default_factory=list)


class ApiError(Exception):
    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body
        super().__init__(f"HTTP {status}: {error_code(body)}")


def error_code(body: Any) -> str:
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return str(body["error"].get("code", ""))
    return ""


class Dealer:
    """What a dealer decides at one table, without HTTP: a shuffled deck per hand, the cards
    shown at a showdown, random legal actions biased so hands end, and when a player who ran
    out must leave and buy in again. Shared by ``Tablet`` (``make bench-api``) and the Locust
    tablets of ``make bench-event``."""

    def __init__(self, *, seats: int, ante: int, seed: int) -> None:
        self.seats = seats
        self.ante = ante
        self.rng = random.Random(seed)
        self.cards: dict[int, str] = {}
        self.deck: list[int] = []
        self.forced = 0  # hands folded to an end after STEP_CAP actions

    def deal(self, hand: dict[str, Any] | None = None) -> None:
        """A freshly shuffled deck for the new hand; cards are handed out when they are shown.
        Taking over a ``hand`` already in play: without the cards it has shown."""
        shown = {
            card
            for a in (hand or {}).get("actions", [])
            if a.get("cards")
            for card in parse_cards(a["cards"])
        }
        self.deck = [card for card in DECK if card not in shown]
        self.rng.shuffle(self.deck)
        self.cards = {}

    def cards_of(self, seat: int) -> str:
        if seat not in self.cards:
            self.cards[seat] = cards_str(self.deck[:3])
            del self.deck[:3]
        return self.cards[seat]

    def needs_rebuy(self, hand: dict[str, Any]) -> bool:
        """After a hand: a dealt player now below the ante, or a seat that was not dealt in."""
        stacks = (hand.get("result") or {}).get("stacks") or {}
        return len(stacks) < self.seats or any(int(v) < self.ante for v in stacks.values())

    def next_entry(self, hand: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
        """The next entry of a hand in play: (kind, path, body) — shown cards at a showdown,
        else a chosen action — naming the hand's ``next_seq``."""
        seq = hand["next_seq"]
        if hand["phase"] == "showing":
            seat = hand["cards_needed"][0]
            body = {"expected_seq": seq, "seat": seat, "cards": self.cards_of(seat)}
            return "cards", f"/hands/{hand['id']}/cards/", body
        return "action", f"/hands/{hand['id']}/actions/", {"expected_seq": seq, **self.choose(hand)}

    def choose(self, hand: dict[str, Any]) -> dict[str, Any]:
        """A random action among the allowed ones, biased so hands end: look, bets near the
        minimum, fold about a quarter of the time, see about 40% when it is possible, cover when
        offered."""
        rng = self.rng
        legal = [la for la in hand["legal_actions"] if la["allowed"]]
        if hand["phase"] == "choosing":
            la = legal[0]
            return {"action": "discard", "seat": la["seat"], "hand": rng.choice(la["hands"])}
        if hand["pending"] is not None:
            keep = next(la for la in legal if la["action"] == "keep")
            if rng.random() < 0.7:
                return {"action": "keep", "seat": keep["seat"]}
            return {"action": "discard", "seat": keep["seat"], "hand": rng.choice(keep["hands"])}
        seat = hand["to_act"]
        if len(hand["actions"]) >= STEP_CAP:
            self.forced += 1
            return {"action": "fold", "seat": seat}
        mine = {la["action"]: la for la in legal if la["seat"] in (seat, None)}
        if "cover" in mine:
            return {"action": "cover", "seat": seat, "amount": mine["cover"]["cost"]}
        look = mine.get("look")
        if look is not None and rng.random() < 0.4:
            out: dict[str, Any] = {"action": "look", "seat": seat}
            if look.get("hands"):
                out["hand"] = rng.choice(look["hands"])
            return out
        if "showdown" in mine and rng.random() < 0.01:
            return {"action": "showdown"}
        if "see" in mine and rng.random() < 0.4:
            return {"action": "see", "seat": seat, "amount": mine["see"]["cost"]}
        if rng.random() < 0.25:
            return {"action": "fold", "seat": seat}
        bet = mine.get("bet")
        if bet is not None:
            lo = bet.get("min_amount") or 0
            hi = bet.get("max_amount")
            hi = lo if hi is None else hi
            amount = lo if rng.random() < 0.7 else lo + int((hi - lo + 1) * rng.random() ** 2.5)
            return {"action": "bet", "seat": seat, "amount": min(amount, hi)}
        if "see" in mine:
            return {"action": "see", "seat": seat, "amount": mine["see"]["cost"]}
        return {"action": "fold", "seat": seat}


class Tablet(Dealer):
    def __init__(
        self,
        *,
        host: str,
        port: int,
        table_id: int,
        token: str,
        seats: int,
        ante: int,
        buy_in: int,
        seed: int,
        think: float = 0.0,
    ) -> None:
        super().__init__(seats=seats, ante=ante, seed=seed)
        self.host = host
        self.port = port
        self.table_id = table_id
        self.buy_in = buy_in
        self.think = think
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        self.headers = {
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"bench-api tablet {table_id}",
        }
        self.stats = TabletStats()
        self.last_answer = b""  # the body of the last 2xx answer to an action (for the reference)

    # ------------------------------------------------------------------ HTTP

    def call(self, kind: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One request, timed from before sending to the last byte of the answer. A write
        carries a fresh Idempotency-Key, so a retry after a dropped connection is safe."""
        headers = dict(self.headers)
        payload = None
        if method != "GET":
            headers["Idempotency-Key"] = uuid.uuid4().hex
            payload = json.dumps(body if body is not None else {}).encode()
        t0 = time.perf_counter()
        for attempt in range(3):
            try:
                self.conn.request(method, API + path, body=payload, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except RETRYABLE:
                self.conn.close()
                if attempt == 2:
                    raise
                self.stats.retries += 1
        end = time.perf_counter()
        status = response.status
        data = json.loads(raw) if raw else None
        ok = 200 <= status < 300
        if ok and kind in ("action", "cards"):
            self.last_answer = raw
        sample = Sample(kind, end, end - t0, status, "" if ok else error_code(data))
        self.stats.samples.append(sample)
        return status, data

    def expect(self, kind: str, method: str, path: str, body: Any = None) -> Any:
        status, data = self.call(kind, method, path, body)
        if not 200 <= status < 300:
            raise ApiError(status, data)
        return data

    # ------------------------------------------------------------------ playing

    def run(self, stop: threading.Event) -> None:
        """Play until ``stop``. An unexpected answer (recorded with its status and code) makes
        the tablet redraw from ``GET /tables/{id}/``, as a real one would; after
        ``MAX_ERRORS`` failures in a row it gives up and the run reports it."""
        hand: dict[str, Any] | None = None
        redraw = True
        errors = 0
        try:
            while not stop.is_set():
                try:
                    if redraw:
                        hand = self.expect("get", "GET", f"/tables/{self.table_id}/")["hand"]
                        redraw = False
                        if not self.deck:
                            self.deal()
                    elif hand is None or hand["status"] != "in_progress":
                        hand = self.start_hand(hand)
                    else:
                        if self.think:
                            time.sleep(self.rng.expovariate(1 / self.think))
                        hand = self.step(hand)
                    errors = 0
                except ApiError:
                    errors += 1
                    if errors >= MAX_ERRORS:
                        raise
                    self.stats.resyncs += 1
                    redraw = True
                    time.sleep(0.1)
        except Exception as err:  # a tablet that dies is reported, not hidden
            self.stats.failures.append(f"{type(err).__name__}: {err}")
        finally:
            self.conn.close()

    def start_hand(self, last: dict[str, Any] | None) -> dict[str, Any]:
        if last is not None and self.needs_rebuy(last):
            self.rebuy()
        status, data = self.call("start", "POST", f"/tables/{self.table_id}/hands/")
        if status == 400 and error_code(data) == "not_enough_players":
            self.rebuy()
            status, data = self.call("start", "POST", f"/tables/{self.table_id}/hands/")
        if not 200 <= status < 300:
            raise ApiError(status, data)
        self.deal()
        return dict(data)

    def rebuy(self) -> None:
        """Between hands, a player who has run out leaves and buys in again at the table maximum
        (the dealer's way; a re-buy proper needs a supervisor and consents)."""
        table = self.expect("get", "GET", f"/tables/{self.table_id}/")
        for seat in table["seats"]:
            if seat["stack"] < self.ante:
                self.expect("seat", "POST", f"/seats/{seat['id']}/leave/")
                self.expect(
                    "seat",
                    "POST",
                    f"/tables/{self.table_id}/seats/",
                    {"seat": seat["number"], "player": seat["player"]["id"], "amount": self.buy_in},
                )
                self.stats.rebuys += 1

    def step(self, hand: dict[str, Any]) -> dict[str, Any]:
        kind, path, body = self.next_entry(hand)
        status, data = self.call(kind, "POST", path, body)
        if 200 <= status < 300:
            after: dict[str, Any] = data["hand"]
            if after["status"] != "in_progress":
                self.stats.settled.append((time.perf_counter(), len(after["actions"])))
            return after
        if status == 409 and isinstance(data, dict):
            details = data.get("error", {}).get("details", {})
            if isinstance(details.get("hand"), dict):
                return dict(details["hand"])
        raise ApiError(status, data)
