"""The audit log in words: one sentence for each entry, from its kind (``Verb``) and what it
recorded (``AuditEntry.data``), so the organisers' page shows no stored key or raw value.

Each kind of entry has its own sentence; an entry of a kind without one (``other``, recorded
before the kinds were listed) gets its values said plainly, each labelled in words. Written
here, in the organisers' layer, because the words name the day's rules (their labels live in
``events.setup``), which the audit app, below every domain app, cannot import."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from brag_event.audit.models import AuditEntry, Verb
from brag_event.events.setup import RULE_LABELS
from brag_event.floor.models import Penalty
from brag_event.players.models import Player

Words = Callable[[dict[str, Any], "Names"], str]


class Names:
    """Player names for the ids entries recorded, looked up once for a page of entries."""

    def __init__(self, entries: Iterable[AuditEntry]) -> None:
        wanted: set[int] = set()
        for entry in entries:
            data = entry.data if isinstance(entry.data, dict) else {}
            for value in (data.get("players"), data.get("shares")):
                for item in value if isinstance(value, list) else []:
                    found = item.get("player_id") if isinstance(item, dict) else item
                    if isinstance(found, int):
                        wanted.add(found)
        self.names = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "name"))

    def of(self, player_id: Any) -> str:
        return self.names.get(player_id, "a player") if isinstance(player_id, int) else "a player"


def plain(value: Any) -> str:
    """A recorded value in words: numbers grouped, yes/no, lists joined, nothing as "—"."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return and_list(plain(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{label(k)} {plain(v)}" for k, v in value.items()) or "—"
    return " ".join(str(value).split())


def label(key: str) -> str:
    """What a recorded field is called: the rule's label, else its name in words."""
    return RULE_LABELS.get(key, str(key).replace("_", " ")).lower()


def and_list(items: Iterable[str]) -> str:
    words = [w for w in items if w]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def seats(values: Any) -> str:
    if not isinstance(values, list) or not values:
        return "nobody"
    return ("seat " if len(values) == 1 else "seats ") + and_list(str(v) for v in values)


def changes(changed: Any) -> str:
    """``{"field": [before, after], …}`` as "ante 5 → 10, …"."""
    if not isinstance(changed, dict) or not changed:
        return "nothing"
    out = []
    for key, pair in changed.items():
        if isinstance(pair, list | tuple) and len(pair) == 2:
            out.append(f"{label(key)} {plain(pair[0])} → {plain(pair[1])}")
        else:
            out.append(f"{label(key)} {plain(pair)}")
    return ", ".join(out)


def because(data: dict[str, Any]) -> str:
    reason = plain(data.get("reason"))
    return f" Why: {reason}." if reason != "—" else ""


PENALTY_WORDS: dict[str, str] = {
    Penalty.Kind.WARNING: "a warning",
    Penalty.Kind.MISSED_HANDS: "missed hands",
    Penalty.Kind.DISQUALIFICATION: "disqualification",
}


def _created(d: dict[str, Any], _n: Names) -> str:
    if d.get("via") == "admin":
        return "Event created in the admin."
    if d.get("preset"):
        return f"Event created from the {d['preset']} preset."
    days = d.get("days")
    return f"Event created from scratch with {plain(days)} days." if days else "Event created."


def _day_count(d: dict[str, Any], n: Names) -> str:
    differences = d.get("differences")
    found = differences if isinstance(differences, dict) else {}
    said = and_list(
        f"seat {seat} {'+' if isinstance(v, int) and v > 0 else ''}{plain(v)}"
        for seat, v in found.items()
    )
    return f"Table {plain(d.get('table'))}'s chips counted: " + (
        f"differences at {said}." if found else "every stack as recorded."
    )


def _count_ruling(d: dict[str, Any], n: Names) -> str:
    where = f"Table {plain(d.get('table'))}: recorded {plain(d.get('recorded'))}, counted " + (
        f"{plain(d.get('counted'))}"
    )
    if d.get("ruling") == "correct":
        source = {"count": "the count's set-aside chips", "house": "the house"}.get(
            str(d.get("source")), "the count's set-aside chips"
        )
        recorded, counted = d.get("recorded"), d.get("counted")
        lower = isinstance(recorded, int) and isinstance(counted, int) and counted < recorded
        moved = "difference set aside" if lower else f"difference taken from {source}"
        return f"{where}; stack corrected to the count ({moved}): {plain(d.get('reason'))}."
    return f"{where}; the records stand: {plain(d.get('reason'))}."


def _day_closed(d: dict[str, Any], _n: Names) -> str:
    audit = "passed" if d.get("audit_ok") else "failed"
    return (
        f"Day closed: {plain(d.get('seats_returned', 0))} stacks returned to their players, "
        f"the ledger audit {audit}, {plain(d.get('qualified', 0))} players qualified for the "
        "next day."
    )


def _carried(d: dict[str, Any], n: Names) -> str:
    shares = d.get("shares") if isinstance(d.get("shares"), list) else []
    parts = [
        f"{n.of(s.get('player_id'))} {plain(s.get('amount'))}"
        for s in shares or []
        if isinstance(s, dict)
    ]
    return f"Carried pot of {plain(d.get('amount'))} shared: {and_list(parts) or 'nobody'}."


def _withdraw(d: dict[str, Any], _n: Names) -> str:
    table = d.get("left_table")
    left = f" Left table {table}." if table else ""
    return f"Withdrawn from the event.{left} Money kept: {plain(d.get('balance'))}.{because(d)}"


def _balance(d: dict[str, Any], _n: Names) -> str:
    moves = d.get("moves") if isinstance(d.get("moves"), list) else []
    said = [
        f"{m.get('name', 'a player')} from table {m.get('from_table')} to table "
        f"{m.get('to_table')} seat {m.get('to_seat')}"
        for m in moves or []
        if isinstance(m, dict)
    ]
    kind = "A table broken up" if d.get("kind") == "break" else "Tables balanced"
    return f"{kind}: {'; '.join(said) or 'no move'}."


def _hand_start(d: dict[str, Any], _n: Names) -> str:
    text = f"Dealt to {seats(d.get('dealt'))}, seat {plain(d.get('dealer'))} dealing."
    if d.get("carried"):
        text += f" Carried pot of {plain(d['carried'])} in play."
    if d.get("kept_hand_dead") is not None:
        text += f" The blind hand kept by seat {d['kept_hand_dead']} is dead."
    return text


def _misdeal(d: dict[str, Any], _n: Names) -> str:
    refunds = d.get("refunds") if isinstance(d.get("refunds"), dict) else {}
    paid = and_list(f"seat {k}: {plain(v)}" for k, v in (refunds or {}).items())
    return f"Misdeal declared; paid back {paid or 'nothing'}.{because(d)}"


def _pots(d: dict[str, Any]) -> str:
    """ "the pot of 640 to Anna Bell" for each pot of a large award, joined."""
    awards = d.get("awards") if isinstance(d.get("awards"), list) else []
    return and_list(
        f"the pot of {plain(a.get('amount'))} to {and_list(str(p) for p in a.get('players', []))}"
        for a in awards or []
        if isinstance(a, dict)
    )


def _award_waits(d: dict[str, Any], _n: Names) -> str:
    return (
        f"Settled with {_pots(d) or 'a large pot'}, at or above the day's "
        f"{plain(d.get('threshold'))}: it waits for a second member of staff to confirm it."
    )


def _award_confirm(d: dict[str, Any], _n: Names) -> str:
    how = "signing in on the table's tablet" if d.get("where") == "tablet" else "on the floor board"
    return f"Confirmed {_pots(d) or 'the large pot'} as second member of staff, {how}."


def _ruling(d: dict[str, Any], n: Names) -> str:
    players = d.get("players") if isinstance(d.get("players"), list) else []
    who = and_list(n.of(p) for p in players or []) or "nobody named"
    penalty = PENALTY_WORDS.get(str(d.get("penalty") or ""), "no penalty")
    if d.get("penalty") == Penalty.Kind.MISSED_HANDS and d.get("missed_hands"):
        penalty = f"{plain(d['missed_hands'])} missed hands"
    return f"Ruling recorded for {who}: {penalty}."


def _integrity(d: dict[str, Any], _n: Names) -> str:
    flags = d.get("flags") if isinstance(d.get("flags"), list) else []
    said = f"{len(flags or [])} flag{'s' if len(flags or []) != 1 else ''}"
    if flags:
        said += ": " + "; ".join(str(f) for f in flags[:3]) + ("…" if len(flags) > 3 else "")
    trigger = {"periodic": "a periodic check", "day_close": "after the day's close"}.get(
        str(d.get("trigger")), "on request"
    )
    return f"Integrity check of {plain(d.get('hands'))} hands ({trigger}): {said}."


WORDS: dict[str, Words] = {
    Verb.EVENT_CREATE: _created,
    Verb.SERIES_CREATE: lambda d, n: f"Series created; points by place: {plain(d.get('points'))}.",
    Verb.SERIES_CHANGE: lambda d, n: (
        f"Added to the series: {plain(d.get('added'))}."
        if d.get("added")
        else f"Taken out of the series: {plain(d.get('removed'))}."
        if d.get("removed")
        else f"Series changed: {changes(d.get('changed'))}."
    ),
    Verb.EVENT_UPDATE: lambda d, n: f"Event changed: {changes(d.get('changed'))}.",
    Verb.DAY_CREATE: lambda d, n: "Day created in the admin.",
    Verb.DAY_UPDATE: lambda d, n: f"Day changed in the admin: {changes(d.get('changed'))}.",
    Verb.DAY_RULES: lambda d, n: f"Rules changed: {changes(d.get('changed'))}.",
    Verb.DAY_DATE: lambda d, n: (
        f"Date of day {plain(d.get('day'))} changed from {plain(d.get('before'))} to "
        f"{plain(d.get('after'))}.{because(d)}"
    ),
    Verb.DAY_QUALIFICATION: lambda d, n: (
        "Who plays the next day: "
        + (f"the top {d.get('top')}" if d.get("rule") == "top" else "everyone who can afford it")
        + "."
    ),
    Verb.DAY_OPEN: lambda d, n: "Day opened: its rules are frozen.",
    Verb.DAY_CLOSE_REQUESTED: lambda d, n: (
        "Close asked for again."
        if d.get("again")
        else "Close asked for: out of play, waiting for the chip count."
        if d.get("count")
        else "Close asked for: out of play."
    ),
    Verb.DAY_CLOSED: _day_closed,
    Verb.DAY_COUNT: _day_count,
    Verb.DAY_COUNT_RULING: _count_ruling,
    Verb.DAY_COUNT_WAIVED: lambda d, n: f"The day's chip count waived: {plain(d.get('reason'))}.",
    Verb.DAY_CARRIED_SHARED: _carried,
    Verb.PLAYER_REGISTER: lambda d, n: (
        f"Registered with {plain(d.get('money', 0))}"
        + (f", membership no. {d['number']}" if d.get("number") else "")
        + (" (a returning person)" if d.get("returning") else "")
        + "."
    ),
    Verb.PLAYER_LOOK_ALIKE: lambda d, n: (
        f"Confirmed as a different person from {plain(d.get('looks_like_name'))} "
        f"(no. {plain(d.get('looks_like_number'))}), whose name looks the same; the standings "
        "show both with their numbers."
    ),
    Verb.PERSON_UPDATE: lambda d, n: "Person's details corrected.",
    Verb.PERSON_MERGE: lambda d, n: (
        f"{plain(d.get('removed_name'))} (no. {plain(d.get('removed_number'))}) merged into "
        f"no. {plain(d.get('kept_number'))}: {len(d.get('entries') or [])} event "
        f"entr{'y' if len(d.get('entries') or []) == 1 else 'ies'} moved."
    ),
    Verb.PLAYER_IMPORT: lambda d, n: (
        f"{plain(d.get('registered', 0))} players imported, {plain(d.get('rejected', 0))} "
        "lines refused."
    ),
    Verb.PLAYER_ISSUE: lambda d, n: f"{plain(d.get('amount'))} issued to the player.",
    Verb.PLAYER_UPDATE: lambda d, n: (
        f"Player changed{'' if d.get('player') else ' in the admin'}: {changes(d.get('changed'))}."
    ),
    Verb.PLAYER_RENAME: lambda d, n: (
        f"Name corrected from {plain(d.get('before'))} to {plain(d.get('after'))}."
    ),
    Verb.PLAYER_WITHDRAW: _withdraw,
    Verb.PLAYER_LINK_REISSUE: lambda d, n: (
        "Private link replaced: a new link and code open the player's page; the old link now "
        "says it was replaced."
    ),
    Verb.PLAYER_REINSTATE: lambda d, n: "Withdrawal taken back: the player can be seated again.",
    Verb.PLAYER_REQUALIFY: lambda d, n: (
        f"Let back in for day {plain(d.get('day'))} past the cut.{because(d)}"
    ),
    Verb.TABLE_CREATE: lambda d, n: "Table created.",
    Verb.TABLE_DEALERS: lambda d, n: (
        f"Dealers: {and_list(str(x) for x in d.get('names') or []) or 'none'}."
    ),
    Verb.TABLE_BALANCE: _balance,
    Verb.DEALER_SHIFT_START: lambda d, n: (
        f"{plain(d.get('dealer'))} signed in to deal"
        + (f", relieving {plain(d.get('relieved'))}." if d.get("relieved") else ".")
    ),
    Verb.DEALER_SHIFT_END: lambda d, n: (
        f"{plain(d.get('dealer'))}'s shift ended after {plain(d.get('minutes'))} minutes: "
        + {
            "relieved": f"relieved by {plain(d.get('next'))}.",
            "moved": f"moved to table {plain(d.get('to_table'))}.",
            "day_closed": "the day closed.",
        }.get(str(d.get("how")), "signed out.")
    ),
    Verb.DEALER_ROTA: lambda d, n: (
        f"Dealers' rota: {plain(d.get('dealers'))} dealers at {plain(d.get('tables'))} tables, "
        f"moving on every {plain(d.get('minutes'))} minutes for {plain(d.get('changes'))} turns."
    ),
    Verb.SEATING_DRAW: lambda d, n: (
        f"Seating drawn with seed {plain(d.get('seed'))}: {plain(d.get('players', 0))} players "
        f"on {plain(d.get('tables', 0))} tables, {plain(d.get('excluded', 0))} not drawn"
        + (
            f"; {plain(d.get('groups_sharing'))} club(s) or group(s) had to share a table."
            if d.get("groups_sharing")
            else "."
        )
    ),
    Verb.SEATING_APPLY: lambda d, n: (
        f"Draw {plain(d.get('seed'))} applied: {plain(d.get('players', 0))} players seated at "
        + (
            f"tables {plain(d.get('tables'))}"
            if isinstance(d.get("tables"), list)
            else f"{plain(d.get('tables'))} tables"
        )
        + "."
    ),
    Verb.SEAT_BUY_IN: lambda d, n: (
        f"Bought in for {plain(d.get('amount'))} (house fee {plain(d.get('fee', 0))})."
    ),
    Verb.SEAT_REBUY: lambda d, n: (
        f"Re-bought for {plain(d.get('amount'))} (house fee {plain(d.get('fee', 0))})"
        + (
            f", with the consent of {len(d['consents'])} player"
            f"{'s' if len(d['consents']) != 1 else ''} at the table."
            if isinstance(d.get("consents"), list) and d["consents"]
            else "."
        )
    ),
    Verb.SEAT_SIT_OUT: lambda d, n: "Sat out.",
    Verb.SEAT_COME_BACK: lambda d, n: "Came back to play.",
    Verb.SEAT_LEAVE: lambda d, n: f"Left the table with {plain(d.get('stack', 0))}.",
    Verb.SEAT_MOVE: lambda d, n: (
        f"Moved from table {plain(d.get('from_table'))} seat {plain(d.get('from_seat'))} to "
        f"table {plain(d.get('to_table'))} seat {plain(d.get('to_seat'))} with "
        f"{plain(d.get('stack'))}."
    ),
    Verb.HAND_START: _hand_start,
    Verb.HAND_VOID: lambda d, n: (
        f"Action {plain(d.get('seq'))} ({plain(d.get('action'))}) voided.{because(d)}"
    ),
    Verb.HAND_MISDEAL: _misdeal,
    Verb.HAND_AWARD_WAITS: _award_waits,
    Verb.HAND_AWARD_CONFIRM: _award_confirm,
    Verb.FLOOR_CALL: lambda d, n: (
        "Floor called" + (f": {plain(d['note'])}." if d.get("note") else ".")
    ),
    Verb.FLOOR_TAKE: lambda d, n: "Floor call taken by a supervisor.",
    Verb.FLOOR_RULING: _ruling,
    Verb.FLOOR_LIFT: lambda d, n: f"Penalty lifted.{because(d)}",
    Verb.TOKEN_ISSUE: lambda d, n: "Device token issued.",
    Verb.TOKEN_REVOKE: lambda d, n: "Device token revoked.",
    Verb.LOGIN_LOCKED_OUT: lambda d, n: (
        f"Locked out after too many wrong passwords, from {plain(d.get('ip_address'))}."
    ),
    Verb.LOGIN_UNLOCK: lambda d, n: (
        f"Login unlocked for {plain(d.get('ip_address'))} ({plain(d.get('attempts', 0))} "
        "failed attempts cleared)."
    ),
    Verb.INTEGRITY_RUN: _integrity,
    Verb.ANNOUNCEMENT_POST: lambda d, n: f"Announced: “{plain(d.get('text'))}”.",
    Verb.ANNOUNCEMENT_REMOVE: lambda d, n: "Announcement taken down.",
    Verb.DAY_CLOCK: lambda d, n: (
        f"Hall clock: next break at {plain(d.get('break_at') or 'not said')}, day ends at "
        f"{plain(d.get('ends_at') or 'not said')}."
    ),
}


def audit_sentence(entry: AuditEntry, names: Names) -> str:
    """What the entry recorded, as a sentence (see the module's docstring)."""
    data = entry.data if isinstance(entry.data, dict) else {}
    words = WORDS.get(entry.verb)
    if words is None:
        said = "; ".join(f"{label(k)}: {plain(v)}" for k, v in data.items())
        return f"{said}." if said else ""
    return words(data, names)
