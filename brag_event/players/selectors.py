"""Read side of players: their names as shown (told apart) and the day being played. The
standings, which read the seats and the hands in play, are ``standings.selectors``, above the
hands (docs/architecture.md, "The domain's order")."""

from __future__ import annotations

from typing import Any

from brag_event.events.models import Day, Event

from .models import Player


def names_shown(entries: list[dict[str, Any]]) -> dict[int, str]:
    """player id → the name to show: players whose names look the same (the organiser
    confirmed two different people) are told apart by their membership numbers and their club
    where they have one, "Harvey Price (no. 1043, Leeds)"; everyone else by their name alone.
    ``entries``: the event's players as dicts with ``id``, ``name``, ``name_key``,
    ``person__number`` and (optional) ``group``, the club they play for."""
    count: dict[str, int] = {}
    for p in entries:
        count[p["name_key"]] = count.get(p["name_key"], 0) + 1
    return {
        p["id"]: f"{p['name']}{apart(p['person__number'], p.get('group') or '')}"
        if count[p["name_key"]] > 1
        else p["name"]
        for p in entries
    }


APART = " (no. {})"  # what tells a name apart from one that looks the same


def apart(number: int, club: str = "") -> str:
    """What tells a name apart: " (no. 1043)", or " (no. 1043, Leeds)" with a club."""
    return APART.format(f"{number}, {club}" if club else number)


def name_apart(shown: str) -> tuple[str, str]:
    """A name as ``names_shown`` says it, in its two parts: the name, and what tells it apart
    ("(no. 1043)" or "(no. 1043, Leeds)", or "" for a name alone) — for a page that may
    shorten the name but must show the rest whole (the hall)."""
    head, sep, tail = shown.rpartition(APART.split("{")[0])
    if sep and head and tail.endswith(")") and tail[:-1].split(",")[0].isdigit():
        return head, f"{sep.lstrip()}{tail}"
    return shown, ""


def event_names_shown(event_id: int) -> dict[int, str]:
    """player id → the player's name as every page, paper and list says it (``names_shown``
    over the event's players): "Harvey Price (no. 1043)" where two of them look the same, else
    the name alone; a removed player by their name alone (they are on no list). The one helper
    for the results and their PDF, the close report, the draw, the hall, the issue-money list
    and the audit's filter."""
    entries = list(
        Player.objects.filter(event_id=event_id).values(
            "id", "name", "name_key", "person__number", "group", "removed_at"
        )
    )
    shown = names_shown([dict(e) for e in entries if e["removed_at"] is None])
    return {e["id"]: shown.get(e["id"], e["name"]) for e in entries}


def current_day(event: Event) -> Day | None:
    """The day being played: the open (or closing) one; between days, the last day that
    closed; before the first day opens, the first day."""
    days = list(event.days.order_by("number"))
    for day in days:
        if day.status in (Day.Status.OPEN, Day.Status.CLOSING):
            return day
    closed = [d for d in days if d.status == Day.Status.CLOSED]
    if closed:
        return closed[-1]
    return days[0] if days else None
