"""The audit log in words: one sentence for each entry, from its kind (``Verb``) and what it
recorded (``AuditEntry.data``), so the organisers' page shows no stored key, id or raw value.

Each kind of entry has its own sentence, naming the players and staff its ids point to (looked
up once for a page: ``Names``); ids the page shows in a column of its own (the player, the
table) or that mean nothing to a person (a draw's or a run's number) are left out. An entry of
a kind without a sentence (``other``, recorded before the kinds were listed) gets its values
said plainly, each labelled in words, its ids left out. Written here, in the organisers' layer,
because the words name the day's rules (their labels live in ``events.setup``) and the integrity
checks, which the audit app, below every domain app, cannot import.
``tests/organiser/test_audit_words.py`` walks every kind."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth import get_user_model

from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.words import counted
from brag_event.events.setup import RULE_LABELS
from brag_event.floor.models import Penalty
from brag_event.integrity.views import CHECK_TITLES
from brag_event.notify.models import Kind
from brag_event.players.models import Player

Words = Callable[[dict[str, Any], "Names"], str]

# Keys whose values are row ids: never said (the fallback for ``other`` leaves them out).
ID_KEYS = frozenset(
    {
        "announcement", "call", "day_id", "entries", "hand", "import", "kept", "looks_like",
        "penalty", "person", "player", "proposal", "removed", "ruling", "run", "seq", "transfer",
        "user",
    }
)  # fmt: skip
USER_KEYS = ("user", "entered_by")  # staff ids an entry names


class Names:
    """Player and staff names for the ids entries recorded, looked up once for a page."""

    def __init__(self, entries: Iterable[AuditEntry]) -> None:
        players: set[int] = set()
        users: set[int] = set()
        for entry in entries:
            data = entry.data if isinstance(entry.data, dict) else {}
            for value in (data.get("players"), data.get("shares")):
                for item in value if isinstance(value, list) else []:
                    found = item.get("player_id") if isinstance(item, dict) else item
                    if isinstance(found, int):
                        players.add(found)
            users.update(v for k in USER_KEYS if isinstance(v := data.get(k), int))
        self.names = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
        self.users = {
            u.pk: u.get_full_name() or u.get_username()
            for u in get_user_model().objects.filter(pk__in=users)
        }

    def of(self, player_id: Any) -> str:
        return self.names.get(player_id, "a player") if isinstance(player_id, int) else "a player"

    def user(self, user_id: Any) -> str:
        found = self.users.get(user_id) if isinstance(user_id, int) else None
        return found or "a member of staff"


def plain(value: Any) -> str:
    """A recorded value in words: numbers grouped, yes/no, lists joined, nothing as "—"."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,g}"
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


def _kinds(values: Any) -> str:
    """The kinds of news a player chose, in the words of their settings page."""
    labels = []
    for value in values or []:
        try:
            labels.append(str(Kind(value).label).lower())
        except ValueError:
            labels.append(plain(value))
    return "; ".join(labels) or "nothing"


def because(data: dict[str, Any]) -> str:
    reason = plain(data.get("reason"))
    return f" Why: {reason}." if reason != "—" else ""


def membership(value: Any) -> str:
    """A membership number as it is written on a card: its digits, no thousands comma."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else plain(value)


def number(value: Any) -> int:
    """A recorded count (0 when missing or not a count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def minutes(value: Any) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "a while"
    whole = round(value)
    return "less than a minute" if whole < 1 else counted(whole, "minute")


def on_date(value: Any) -> str:
    """A recorded date (``2026-11-28``) as "28 Nov 2026"; none: "no date"."""
    try:
        day = dt.date.fromisoformat(str(value))
    except ValueError:
        return "no date" if value in (None, "") else plain(value)
    return f"{day.day} {day:%b %Y}"


def at_clock(value: Any) -> str:
    """A recorded moment (ISO 8601, in the event's zone when recorded) as its "14:00"."""
    try:
        return dt.datetime.fromisoformat(str(value)).strftime("%H:%M")
    except ValueError:
        return plain(value)


ROLE_WORDS = {"organiser": "an organiser", "supervisor": "a floor supervisor", "dealer": "a dealer"}
WAY_IN = (  # where a locked-out login was tried, by its address
    ("/organiser/", "the console's sign-in"),
    ("/admin/", "the admin's sign-in"),
    ("/tablet/", "the tablet's sign-in"),
    ("/api/", "a tablet's sign-in"),
)


def way_in(path: Any) -> str:
    text = str(path or "")
    return next((words for start, words in WAY_IN if text.startswith(start)), "a sign-in page")


PENALTY_WORDS: dict[str, str] = {
    Penalty.Kind.WARNING: "a warning",
    Penalty.Kind.MISSED_HANDS: "missed hands",
    Penalty.Kind.DISQUALIFICATION: "disqualification",
}


def _created(d: dict[str, Any], _n: Names) -> str:
    if d.get("via") == "admin":
        money = f", its money called {plain(d['currency'])}" if d.get("currency") else ""
        return f"Event created in the admin{money}."
    zone = f", times in {plain(d['time_zone'])}" if d.get("time_zone") else ""
    if d.get("preset"):
        return f"Event created from the {plain(d['preset'])} preset{zone}."
    days = number(d.get("days"))
    if days:
        return f"Event created from scratch with {counted(days, 'day')}{zone}."
    return f"Event created{zone}."


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
    root = str(d.get("record_root") or "")
    published = f"; its record's root published ({root[:12]}…)" if root else ""
    returned = number(d.get("seats_returned"))
    return (
        f"Day closed: {counted(returned, 'stack')} returned to "
        f"{'its player' if returned == 1 else 'their players'}, the ledger audit {audit}, "
        f"{counted(number(d.get('qualified')), 'player')} qualified for the next day{published}."
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


def _award_confirm(d: dict[str, Any], n: Names) -> str:
    how = "signing in on the table's tablet" if d.get("where") == "tablet" else "on the floor board"
    entered = f", entered by {n.user(d['entered_by'])}," if d.get("entered_by") else ""
    return f"Confirmed {_pots(d) or 'the large pot'}{entered} as second member of staff, {how}."


def _ruling(d: dict[str, Any], n: Names) -> str:
    players = d.get("players") if isinstance(d.get("players"), list) else []
    who = and_list(n.of(p) for p in players or []) or "nobody named"
    penalty = PENALTY_WORDS.get(str(d.get("penalty") or ""), "no penalty")
    if d.get("penalty") == Penalty.Kind.MISSED_HANDS and d.get("missed_hands"):
        penalty = f"{plain(d['missed_hands'])} missed hands"
    return f"Ruling recorded for {who}: {penalty}."


def _integrity(d: dict[str, Any], _n: Names) -> str:
    flags = d.get("flags") if isinstance(d.get("flags"), list) else []
    said = counted(len(flags or []), "flag") if flags else "nothing flagged"
    if flags:
        named = []
        for flag in (flags or [])[:3]:
            check, _, subject = str(flag).partition(": ")
            title = CHECK_TITLES.get(check, "")
            named.append(f"{title.lower()}, {subject}" if title and subject else str(flag))
        said += ": " + "; ".join(named) + ("…" if len(flags or []) > 3 else "")
    trigger = {"periodic": "a periodic check", "day_close": "after the day's close"}.get(
        str(d.get("trigger")), "on request"
    )
    return f"Integrity check of {counted(number(d.get('hands')), 'hand')} ({trigger}): {said}."


def _staff(what: str) -> Words:
    """A staff account's change: "{what}" with the account's name, and what it ended."""

    def words(d: dict[str, Any], n: Names) -> str:
        ended = []
        if "sessions_ended" in d:
            ended.append(f"signed out of {counted(number(d['sessions_ended']), 'session')}")
        if "tokens_revoked" in d:
            revoked = number(d["tokens_revoked"])
            ended.append(f"{counted(revoked, 'tablet token')} revoked")
        tail = f": {and_list(ended)}" if ended else ""
        return f"{what.format(who=n.user(d.get('user')))}{tail}."

    return words


def _imported(d: dict[str, Any], _n: Names) -> str:
    refused = number(d.get("refused"))
    money = number(d.get("money"))
    with_money = f" with {plain(money)} of starting money" if money else ""
    lines = f"{counted(refused, 'line')} of the file refused" if refused else "no line refused"
    return f"{counted(number(d.get('registered')), 'player')} imported{with_money}; {lines}."


def taken_back(d: dict[str, Any]) -> str:
    money = number(d.get("money_taken_back"))
    return f"{plain(money)} of starting money taken back" if money else "no money to take back"


def _import_undone(d: dict[str, Any], _n: Names) -> str:
    removed = number(d.get("removed"))
    return f"Import undone: {counted(removed, 'player')} withdrawn, {taken_back(d)}."


def _removed(d: dict[str, Any], _n: Names) -> str:
    source = " from an import" if d.get("import") else ""
    return f"Registered by mistake{source}: removed, {taken_back(d)}.{because(d)}"


def _registered(d: dict[str, Any], _n: Names) -> str:
    money = number(d.get("money"))
    parts = [f"Registered with {plain(money)}" if money else "Registered with no money"]
    if d.get("number"):
        parts.append(f", membership no. {membership(d['number'])}")
    if d.get("group"):
        parts.append(f", club {plain(d['group'])}")
    if d.get("returning"):
        parts.append(" (a returning person)")
    if d.get("import"):
        parts.append(", from an imported file")
    return "".join(parts) + "."


def _person_update(d: dict[str, Any], _n: Names) -> str:
    before = d["before"] if isinstance(d.get("before"), dict) else {}
    after = d["after"] if isinstance(d.get("after"), dict) else {}
    changed = {k: [before.get(k), v] for k, v in after.items() if before.get(k) != v}
    said = f": {changes(changed)}" if changed else ""
    return f"Person's details corrected{said}."


def _event_imported(d: dict[str, Any], _n: Names) -> str:
    where = f", played at {plain(d['source'])}" if d.get("source") else ""
    new, known = number(d.get("people_new")), number(d.get("people_known"))
    renumbered = d.get("renumbered") if isinstance(d.get("renumbered"), dict) else {}
    given = (
        f" New people whose number in the file was someone else's here: "
        f"{and_list(f'{membership(a)} is now {membership(b)}' for a, b in renumbered.items())}."
        if renumbered
        else ""
    )
    return (
        f"Past event imported from the results file {plain(d.get('file'))}{where}: "
        f"{counted(number(d.get('days')), 'day')}, {counted(new, 'new person', 'new people')} "
        f"and {counted(known, 'person', 'people')} already known.{given}"
    )


def _dealers(d: dict[str, Any], _n: Names) -> str:
    names = d.get("names") if "names" in d else d.get("dealers")  # the admin records "dealers"
    return f"Dealers: {and_list(str(x) for x in names or []) or 'none'}."


def _applied(d: dict[str, Any], _n: Names) -> str:
    tables = d.get("tables")
    at = (
        ("table " if len(tables) == 1 else "tables ") + plain(tables)
        if isinstance(tables, list)
        else counted(number(tables), "table")
    )
    renumbered = d.get("renumbered") if isinstance(d.get("renumbered"), dict) else {}
    moved = and_list(f"{k} → {plain(v)}" for k, v in (renumbered or {}).items())
    again = f"; tables renumbered {moved}" if moved else ""
    return (
        f"Draw {plain(d.get('seed'))} applied: {counted(number(d.get('players')), 'player')} "
        f"seated at {at}{again}."
    )


def _drawn(d: dict[str, Any], _n: Names) -> str:
    sharing = number(d.get("groups_sharing"))
    shared = (
        f"; {counted(sharing, 'club or group', 'clubs or groups')} had to share a table."
        if sharing
        else "."
    )
    return (
        f"Seating drawn with seed {plain(d.get('seed'))}: "
        f"{counted(number(d.get('players')), 'player')} on "
        f"{counted(number(d.get('tables')), 'table')}, {plain(number(d.get('excluded')))} "
        "not drawn"
        + (
            f" ({plain(number(d.get('not_checked_in')))} of them not checked in)"
            if d.get("not_checked_in")
            else ""
        )
        + shared
    )


def _shift_end(d: dict[str, Any], _n: Names) -> str:
    how = {
        "relieved": f"relieved by {plain(d.get('next'))}.",
        "moved": f"moved to table {plain(d.get('to_table'))}.",
        "day_closed": "the day closed.",
    }.get(str(d.get("how")), "signed out.")
    return f"{plain(d.get('dealer'))}'s shift ended after {minutes(d.get('minutes'))}: {how}"


def _rota(d: dict[str, Any], _n: Names) -> str:
    return (
        f"Dealers' rota: {counted(number(d.get('dealers')), 'dealer')} at "
        f"{counted(number(d.get('tables')), 'table')}, from {at_clock(d.get('starts_at'))}, "
        f"moving on every {minutes(d.get('minutes'))} for "
        f"{counted(number(d.get('changes')), 'turn')}."
    )


def _locked_out(d: dict[str, Any], _n: Names) -> str:
    return (
        f"Locked out after too many wrong passwords at {way_in(d.get('path'))}, from "
        f"{plain(d.get('ip_address'))}."
    )


def _unlocked(d: dict[str, Any], _n: Names) -> str:
    attempts = number(d.get("attempts"))
    return (
        f"Login unlocked for {plain(d.get('ip_address'))} "
        f"({counted(attempts, 'failed attempt')} cleared)."
    )


def _starting_money(d: dict[str, Any], _n: Names) -> str:
    before = d.get("before")
    was = f" (was {plain(before)})" if before is not None else " (none before)"
    return f"The event's starting money set to {plain(d.get('after'))}{was}."


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
    Verb.DAY_CREATE: lambda d, n: (
        "Day created in the admin." if d.get("via") == "admin" else "Day created."
    ),
    Verb.DAY_UPDATE: lambda d, n: f"Day changed in the admin: {changes(d.get('changed'))}.",
    Verb.DAY_RULES: lambda d, n: f"Rules changed: {changes(d.get('changed'))}.",
    Verb.DAY_DATE: lambda d, n: (
        f"Date of day {plain(d.get('day'))} changed from {on_date(d.get('before'))} to "
        f"{on_date(d.get('after'))}.{because(d)}"
    ),
    Verb.DAY_QUALIFICATION: lambda d, n: (
        "Who plays the next day: "
        + (
            f"the top {plain(d.get('top'))}"
            if d.get("rule") == "top"
            else "everyone who can afford it"
        )
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
    Verb.PLAYER_REGISTER: _registered,
    Verb.PLAYER_LOOK_ALIKE: lambda d, n: (
        f"Confirmed as a different person from {plain(d.get('looks_like_name'))} "
        f"(no. {membership(d.get('looks_like_number'))}), whose name looks the same; the standings "
        "show both with their numbers."
    ),
    Verb.PERSON_UPDATE: _person_update,
    Verb.PERSON_MERGE: lambda d, n: (
        f"{plain(d.get('removed_name'))} (no. {membership(d.get('removed_number'))}) merged "
        f"into no. {membership(d.get('kept_number'))}: "
        f"{counted(len(d.get('entries') or []), 'event entry', 'event entries')} moved."
    ),
    Verb.PLAYER_IMPORT: _imported,
    Verb.PLAYER_IMPORT_UNDO: _import_undone,
    Verb.PLAYER_REMOVE: _removed,
    Verb.EVENT_STARTING_MONEY: _starting_money,
    Verb.EVENT_IMPORT: _event_imported,
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
    Verb.PLAYER_CHECK_IN: lambda d, n: (
        f"Checked in for day {plain(d.get('day'))} "
        + ("at the desk." if d.get("how") == "desk" else "from their own page.")
    ),
    Verb.CHECKIN_WINDOW: lambda d, n: (
        ("Check-in moved" if d.get("moved") else "Check-in opened")
        + f" for day {plain(d.get('day'))}: from {plain(d.get('opens'))} to "
        f"{plain(d.get('closes'))}; the draw seats "
        + ("only the players checked in." if d.get("only_checked_in") else "every qualifier.")
    ),
    Verb.NOTIFY_CONTACT: lambda d, n: (
        (
            "Notifications in the browser switched on."
            if d.get("push")
            else "Notifications in the browser switched off."
        )
        if "push" in d
        else (
            "Notification settings saved: "
            + (
                "emails to the address given"
                if (d.get("after") or {}).get("email")
                else "no emails"
            )
            + f", about {_kinds((d.get('after') or {}).get('kinds'))}."
        )
    ),
    Verb.NOTIFY_UNSUBSCRIBE: lambda d, n: "Emails stopped by the player's unsubscribe link.",
    Verb.FEED_SETTINGS: lambda d, n: (
        f"Public feed: news from play shown {plain((d.get('after') or {}).get('delay_minutes'))}"
        f" minutes late; pots of {plain((d.get('after') or {}).get('big_pot'))} or more told."
    ),
    Verb.FEED_ENTRY_REMOVE: lambda d, n: f"Taken down from the public feed: {plain(d.get('text'))}",
    Verb.SEAT_LATE_ARRIVAL: lambda d, n: (
        f"Arrived late and seated at table {plain(d.get('table'))} seat {plain(d.get('seat'))} "
        f"with {plain(d.get('amount'))}: the table with the fewest players "
        f"({plain(d.get('players'))} there before)."
    ),
    Verb.TABLE_CREATE: lambda d, n: "Table created.",
    Verb.TABLE_DEALERS: _dealers,
    Verb.TABLE_BALANCE: _balance,
    Verb.DEALER_SHIFT_START: lambda d, n: (
        f"{plain(d.get('dealer'))} signed in to deal"
        + (f", relieving {plain(d.get('relieved'))}." if d.get("relieved") else ".")
    ),
    Verb.DEALER_SHIFT_END: _shift_end,
    Verb.DEALER_ROTA: _rota,
    Verb.SEATING_DRAW: _drawn,
    Verb.SEATING_APPLY: _applied,
    Verb.SEAT_BUY_IN: lambda d, n: (
        f"Bought in for {plain(d.get('amount'))} (house fee {plain(d.get('fee', 0))})."
    ),
    Verb.SEAT_REBUY: lambda d, n: (
        f"Re-bought for {plain(d.get('amount'))} (house fee {plain(d.get('fee', 0))})"
        + (
            f", with the consent of {counted(len(d['consents']), 'player')} at the table."
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
    Verb.DAY_AWARD_FROM: lambda d, n: (
        f"Pots waiting for a supervisor: from {plain(d.get('before') or 'never')} to "
        f"{plain(d.get('after') or 'never')}"
        + (" (while the day was open)." if d.get("open") else ".")
        + because(d)
    ),
    Verb.FLOOR_CALL: lambda d, n: (
        "Floor called" + (f": {plain(d['note'])}." if d.get("note") else ".")
    ),
    Verb.FLOOR_TAKE: lambda d, n: "Floor call taken by a supervisor.",
    Verb.FLOOR_RULING: _ruling,
    Verb.FLOOR_LIFT: lambda d, n: f"Penalty lifted.{because(d)}",
    Verb.TOKEN_ISSUE: lambda d, n: f"Device token issued for {n.user(d.get('user'))}.",
    Verb.TOKEN_REVOKE: lambda d, n: "Device token revoked.",
    Verb.LOGIN_LOCKED_OUT: _locked_out,
    Verb.LOGIN_UNLOCK: _unlocked,
    Verb.STAFF_CREATE: lambda d, n: (
        f"Staff account created for {n.user(d.get('user'))}, as "
        f"{ROLE_WORDS.get(str(d.get('role')), 'a member of staff')}."
    ),
    Verb.STAFF_PASSWORD: _staff("{who}'s password reset"),
    Verb.STAFF_DEACTIVATE: _staff("{who}'s account switched off"),
    Verb.STAFF_ACTIVATE: _staff("{who}'s account switched on again"),
    Verb.INTEGRITY_RUN: _integrity,
    Verb.ANNOUNCEMENT_POST: lambda d, n: f"Announced: “{plain(d.get('text'))}”.",
    Verb.ANNOUNCEMENT_REMOVE: lambda d, n: "Announcement taken down.",
    Verb.DAY_CLOCK: lambda d, n: (
        "Hall clock: "
        + (f"next break at {plain(d['break_at'])}" if d.get("break_at") else "no break set")
        + ", "
        + (f"the day ends at {plain(d['ends_at'])}" if d.get("ends_at") else "no end time set")
        + "."
    ),
}


def audit_sentence(entry: AuditEntry, names: Names) -> str:
    """What the entry recorded, as a sentence (see the module's docstring)."""
    data = entry.data if isinstance(entry.data, dict) else {}
    words = WORDS.get(entry.verb)
    if words is None:
        said = "; ".join(
            f"{label(k)} {names.user(v) if k in USER_KEYS else plain(v)}"
            for k, v in data.items()
            if k in USER_KEYS or k not in ID_KEYS
        )
        return f"Recorded: {said}." if said else ""
    return words(data, names)
