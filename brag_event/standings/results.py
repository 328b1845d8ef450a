"""The standings as people read them: a day's, live while it is played and frozen once it has
closed, and the event's — overall while it runs, its final results once its last day has closed
(RULES §4b: "Who can qualify", "Standings after a close").

**A day's order.** The players of the day's field who were dealt into at least one hand that day
come first, by money: the cut is made among them, so its line has only qualifiers above it.
Then the players of the field who did not play that day, those who withdrew, those out at an
earlier cut, each by money; the disqualified last, outside the ranking. Equal money within one
group shares a rank.

**A closed day** is read from what its close took (``StandingSnapshot``: money, change, hands,
position, rank and mark), never from later balances; a later decision — a player let back in
for the next day — is said beside their row, without moving it.

**The event's standings** rank the players still in the event (the field of the day in play,
or of the next day between days) by their money now, then the players out after each closed
day, later days first, each by their money at the close that put them out. Once the last day
has closed, that is the event's final ranking, and series points follow it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Sum

from brag_event.events.models import Day, Event
from brag_event.players.models import Player, Qualification, Standing, StandingSnapshot
from brag_event.players.qualify import (
    REQUALIFIED,
    Cut,
    day_cut,
    following_day,
    only_qualifiers,
)
from brag_event.players.selectors import current_day, event_names_shown

from .selectors import standings

# A player's mark in a day's standings (``StandingSnapshot.mark``).
QUALIFIED = "qualified"  # through the day's cut to the next day
OUT = "out"  # played the day and missed its cut
DID_NOT_PLAY = "did_not_play"  # of the day's field, dealt into no hand that day
WITHDRAWN = "withdrawn"  # of the day's field, withdrawn from the event
EARLIER = "earlier"  # not of the day's field: out at an earlier cut (or never drawn into it)
DISQUALIFIED = "disqualified"
IN = "in"  # plays the day (in play, or the last day: no cut)
MARKS = (QUALIFIED, OUT, DID_NOT_PLAY, WITHDRAWN, EARLIER, DISQUALIFIED, IN)

# What the API and the pages call each mark's standing (qualified, in, out, disqualified).
STANDING = {
    QUALIFIED: "qualified",
    OUT: "out",
    DID_NOT_PLAY: "out",
    WITHDRAWN: "out",
    EARLIER: "out",
    DISQUALIFIED: "disqualified",
    IN: "in",
}
# The groups of a day's order, top to bottom.
_GROUP = {QUALIFIED: 0, OUT: 0, IN: 0, DID_NOT_PLAY: 1, WITHDRAWN: 2, EARLIER: 3, DISQUALIFIED: 4}


def mark_words(mark: str, *, day: int, following: int | None, out_after: int | None) -> str:
    """A mark in words, as a row of day ``day``'s standings shows it."""
    if mark == QUALIFIED:
        return f"qualified for day {following}"
    if mark == OUT:
        return f"out after day {day}"
    if mark == DID_NOT_PLAY:
        return f"did not play day {day}"
    if mark == WITHDRAWN:
        return "withdrawn"
    if mark == EARLIER:
        return f"out after day {out_after}" if out_after else "not in this day's field"
    if mark == DISQUALIFIED:
        return "disqualified"
    return ""


@dataclass
class Field:
    """Who day ``day`` was for: the players allowed to play it (withdrawn ones included), and,
    for everyone else, the last earlier day whose field they were in."""

    members: set[int]
    withdrawn: set[int]
    out_after: dict[int, int]


def field_of(day: Day) -> Field:
    players = Player.objects.filter(event_id=day.event_id, removed_at__isnull=True)
    if only_qualifiers(day):
        members = set(players.filter(qualifications__day=day).values_list("pk", flat=True))
    else:
        members = set(players.values_list("pk", flat=True))
    withdrawn = set(players.filter(withdrawn_at__isnull=False).values_list("pk", flat=True))
    out_after: dict[int, int] = {}
    for player, number in (
        StandingSnapshot.objects.filter(day__event_id=day.event_id, day__number__lt=day.number)
        .exclude(mark=EARLIER)
        .order_by("day__number")
        .values_list("player_id", "day__number")
    ):
        out_after[player] = number
    return Field(members, withdrawn, out_after)


def _ranked(rows: list[dict[str, Any]]) -> None:
    """Positions and ranks for ``rows`` in their order: equal money within one group shares a
    rank; the disqualified are outside the ranking."""
    previous: tuple[int, int] | None = None
    rank = 0
    for index, row in enumerate(rows, start=1):
        row["position"] = index
        if row["mark"] == DISQUALIFIED:
            row["rank"] = None
            continue
        key = (_GROUP[row["mark"]], row["total"])
        if key != previous:
            rank, previous = index, key
        row["rank"] = rank


def _words(rows: list[dict[str, Any]], day: Day, following: Day | None, live: bool) -> None:
    after = following.number if following else None
    for row in rows:
        mark = row["mark"]
        row["standing"] = STANDING[mark]
        row["disqualified"] = mark == DISQUALIFIED
        if live and mark == DID_NOT_PLAY:
            # In play (or not started yet): a player without a hand yet is still in, listed
            # after those who have played (the cut line's words say why).
            row["standing"] = "in"
            row["note"] = ""
        else:
            row["note"] = mark_words(
                mark, day=day.number, following=after, out_after=row.get("out_after")
            )


def day_order(
    day: Day,
    rows: list[dict[str, Any]],
    *,
    cut: Cut | None = None,
    played: set[int] | None = None,
) -> list[dict[str, Any]]:
    """``rows`` (``selectors.standings`` of ``day``: the money now) in the day's order, each
    with its ``mark``, ``out_after``, ``position`` and ``rank``; with ``cut`` (the close's), the
    qualifiers marked. Without it, the day's field is ``in`` (no cut made yet). ``played``: who
    has played the day (default: the rows' hands played)."""
    field = field_of(day)
    following = following_day(day)
    for row in rows:
        player = row["player"]
        row["out_after"] = None
        if row.get("disqualified"):
            row["mark"] = DISQUALIFIED
        elif player not in field.members:
            row["mark"] = EARLIER
            row["out_after"] = field.out_after.get(player)
        elif player in field.withdrawn:
            row["mark"] = WITHDRAWN
        elif (player not in played) if played is not None else not row["hands_played"]:
            row["mark"] = DID_NOT_PLAY
        elif cut is None or following is None:
            row["mark"] = IN
        else:
            row["mark"] = QUALIFIED if row["player"] in cut.qualified else OUT
    rows.sort(key=lambda r: (_GROUP[r["mark"]], -r["total"], r["name"], r["player"]))
    _ranked(rows)
    return rows


def close_standings(day: Day) -> tuple[list[dict[str, Any]], Cut]:
    """What a day's close takes: the day's standings in its order with every mark, and its cut
    (made among the players of its field who played that day)."""
    rows = day_order(day, standings(day.event, day))
    cut = day_cut(day, rows)
    return day_order(day, rows, cut=cut), cut


def cut_of(rows: list[dict[str, Any]], text: str) -> dict[str, Any]:
    """The cut line under the last qualifier (they are the first rows of a day's order)."""
    above = [i for i, r in enumerate(rows) if r["mark"] == QUALIFIED]
    return {"after": above[-1] + 1 if above else 0, "text": text}


# ------------------------------------------------------------------------------- a closed day


def snapshot_rows(day: Day) -> list[dict[str, Any]]:
    """A closed day's standings as its close took them, in its order (a close from before the
    order was kept: by rank, the disqualified last), with each player's name as the event shows
    it today and any later decision beside (``later``: let back in for the next day)."""
    following = following_day(day)
    snaps = list(
        StandingSnapshot.objects.filter(day=day, player__removed_at__isnull=True).values(
            "player_id",
            "position",
            "rank",
            "total",
            "change",
            "hands_played",
            "hands_won",
            "qualified",
            "mark",
            "out_after",
        )
    )
    shown = _names(day.event_id)
    back: set[int] = set()
    if following is not None:
        back = set(
            Qualification.objects.filter(day=following, reason__startswith=REQUALIFIED)
            .exclude(player_id__in=[s["player_id"] for s in snaps if s["qualified"]])
            .values_list("player_id", flat=True)
        )
    rows: list[dict[str, Any]] = []
    for s in snaps:
        mark = s["mark"] or _legacy_mark(s, following)
        rows.append(
            {
                "player": s["player_id"],
                "name": shown.get(s["player_id"], ""),
                "balance": s["total"],
                "stack": 0,
                "table": None,
                "total": s["total"],
                "change": s["change"],
                "hands_played": s["hands_played"],
                "hands_won": s["hands_won"],
                "rank": s["rank"] or None,
                "position": s["position"],
                "mark": mark,
                "out_after": s["out_after"],
                "qualified": s["qualified"],
            }
        )
    if all(r["position"] for r in rows):
        rows.sort(key=lambda r: r["position"])
    else:  # kept before the order was: the ranked by rank, the disqualified last
        rows.sort(key=lambda r: (r["mark"] == DISQUALIFIED, r["rank"] or 0, r["name"]))
    _words(rows, day, following, live=False)
    for row in rows:
        row["later"] = (
            f"let back in for day {following.number}"
            if following is not None and row["player"] in back
            else ""
        )
    return rows


def since_close(day: Day) -> list[dict[str, Any]]:
    """The organiser's decisions since ``day`` closed that its standings do not show (they never
    move): the players let back in for the next day, each in words, to show beside them."""
    if day.status != Day.Status.CLOSED:
        return []
    return [
        {"player": r["player"], "name": r["name"], "text": r["later"]}
        for r in snapshot_rows(day)
        if r["later"]
    ]


def _legacy_mark(snap: Mapping[str, Any], following: Day | None) -> str:
    if not snap["rank"]:
        return DISQUALIFIED
    if snap["qualified"]:
        return QUALIFIED
    return OUT if following is not None else IN


def _names(event_id: int) -> dict[int, str]:
    return event_names_shown(event_id)


def closed_cut(day: Day, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A closed day's cut line, under its last qualifier; none after the last day."""
    following = following_day(day)
    if following is None:
        return None
    qualified = sum(1 for r in rows if r["mark"] == QUALIFIED)
    return cut_of(rows, f"The cut: {qualified} qualified for day {following.number}")


# ---------------------------------------------------------------------- what the pages show


def standings_marked(
    event: Event, day: Day | None = None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The standings as every surface shows them (page, API, CSV, hall): a day's (``day``) or
    the event's (``None``), each row with its ``standing`` (qualified, in, out or
    disqualified) and ``note`` (it in words), and the cut line (``after``: how many rows lie
    above it; ``text``: it in words), or ``None`` where no cut applies."""
    if day is None:
        rows, cut = event_standings(event)
    elif day.status == Day.Status.CLOSED:
        rows = snapshot_rows(day)
        cut = closed_cut(day, rows)
    else:
        rows, cut = _live_day(event, day)
    return [{k: r[k] for k in SHOWN} for r in rows], cut


# What every surface shows of a row (the API's ``StandingOut``).
SHOWN = (
    "rank",
    "player",
    "name",
    "balance",
    "stack",
    "table",
    "total",
    "change",
    "hands_played",
    "hands_won",
    "disqualified",
    "standing",
    "note",
)


def _live_day(event: Event, day: Day) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    rows = day_order(day, standings(event, day))
    following = following_day(day)
    in_play = day.status in (Day.Status.OPEN, Day.Status.CLOSING)
    _words(rows, day, following, live=True)
    if following is None or not in_play or not any(r["mark"] == IN for r in rows):
        return rows, None  # no cut to show: the last day, not in play, or nobody has played
    # Where the cut would fall if the day closed now.
    cut = day_cut(day, rows)
    for row in rows:
        if row["player"] in cut.qualified:
            row["mark"] = QUALIFIED
    waiting = sum(1 for r in rows if r["mark"] == DID_NOT_PLAY)
    line = cut_of(
        rows,
        f"The cut if day {day.number} closed now: {len(cut.qualified)} would play day "
        f"{following.number}"
        + (
            f" ({waiting} with no hand yet today below: only those who play can go through)"
            if waiting
            else ""
        ),
    )
    for row in rows:  # the preview marks nobody: they are all still in
        if row["mark"] == QUALIFIED:
            row["mark"] = IN
    return rows, line


def event_standings(event: Event) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The event's standings: the players still in it by money now (a day in play: in its
    order, with the cut it would make), then those out after each closed day, later days
    first, each by money at that close; once the last day has closed, its final results
    (``final_standings``)."""
    days = list(event.days.order_by("number"))
    if not days:
        return [], None
    if days[-1].status == Day.Status.CLOSED:
        return final_standings(event), None
    today = current_day(event)
    if today is None:  # pragma: no cover — an event with days has a current one
        return [], None
    stage = following_day(today) if today.status == Day.Status.CLOSED else today
    if stage is None:  # pragma: no cover — the last day has not closed
        stage = today
    closed = [d for d in days if d.status == Day.Status.CLOSED]
    out = _out_groups(event, closed, still_in=field_of(stage).members)
    overall = {r["player"]: r for r in standings(event, None) if r["player"] not in out.players}
    cut: dict[str, Any] | None = None
    if stage.status in (Day.Status.OPEN, Day.Status.CLOSING):
        # The day in play: its own order and the cut it would make, with each player's hands
        # over the whole event.
        day_rows, cut = _live_day(event, stage)
        live = []
        for r in day_rows:
            if r["player"] in overall:
                whole = overall[r["player"]]
                r.update(hands_played=whole["hands_played"], hands_won=whole["hands_won"])
                live.append(r)
    else:
        # Between days (or before the first): the next day's field by money now, nobody has
        # played it yet; after a close, its qualifiers and those let back in marked so.
        live = day_order(stage, list(overall.values()), played=set())
        _words(live, stage, following_day(stage), live=True)
        if closed:
            through = {r["player"] for r in snapshot_rows(closed[-1]) if r["mark"] == QUALIFIED}
            playing = back = 0
            for r in live:
                if r["mark"] != DID_NOT_PLAY:
                    continue
                playing += 1
                r["standing"] = "qualified"
                if r["player"] in through:
                    r["note"] = f"qualified for day {stage.number}"
                else:
                    back += 1
                    r["note"] = f"let back in for day {stage.number}"
            cut = {
                "after": playing,
                "text": f"The cut: {playing - back} qualified for day {stage.number}"
                + (f", {back} let back in" if back else ""),
            }
    for r in live:
        r["group"] = (0, _GROUP[r["mark"]])
    kept = [r for r in live if r["mark"] != DISQUALIFIED]
    gone = [r for r in live if r["mark"] == DISQUALIFIED]
    rows = kept + out.rows(today.number) + gone + out.disqualified
    _renumber(rows)
    return rows, cut


def _renumber(rows: list[dict[str, Any]]) -> None:
    """Positions and ranks down the whole list; equal money in one group shares a rank."""
    previous: tuple[Any, int] | None = None
    rank = 0
    for index, row in enumerate(rows, start=1):
        row["position"] = index
        if row["mark"] == DISQUALIFIED:
            row["rank"] = None
            continue
        key = (row["group"], row["total"])
        if key != previous:
            rank, previous = index, key
        row["rank"] = rank


@dataclass
class _Out:
    """The players out after each closed day (by day, later first), from the snapshots."""

    groups: list[tuple[int, list[dict[str, Any]]]]
    disqualified: list[dict[str, Any]]
    players: set[int]

    def rows(self, today: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for number, rows in self.groups:
            for r in rows:
                r["group"] = (1, -number)
                if number != today:
                    r["change"] = 0  # the change shown is over today: they did not play it
                out.append(r)
        return out


def _out_groups(event: Event, closed: list[Day], *, still_in: Iterable[int]) -> _Out:
    """Every player not ``still_in`` the event, grouped by the last closed day whose field
    they were in, each group by money at that close; the disqualified apart."""
    still = set(still_in)
    per_day = [(d, snapshot_rows(d)) for d in closed]
    last_of: dict[int, int] = {}
    for d, rows in per_day:
        for r in rows:
            if r["mark"] != EARLIER:
                last_of[r["player"]] = d.number
    hands = _hands_by_player(event)
    groups: list[tuple[int, list[dict[str, Any]]]] = []
    disqualified: list[dict[str, Any]] = []
    players: set[int] = set()
    for d, rows in reversed(per_day):
        group = []
        for r in rows:
            player = r["player"]
            if last_of.get(player) != d.number or player in still:
                continue
            row = dict(r)
            row["hands_played"], row["hands_won"] = hands.get(player, (0, 0))
            row["later"] = ""
            mark = OUT if r["mark"] == QUALIFIED else r["mark"]  # a qualifier who never played on
            row["note"] = mark_words(mark, day=d.number, following=None, out_after=None)
            row["standing"] = STANDING[mark]
            players.add(player)
            if mark == DISQUALIFIED:
                row["group"] = (2, 0)
                disqualified.append(row)
            else:
                group.append(row)
        group.sort(key=lambda r: (-r["total"], r["name"], r["player"]))
        groups.append((d.number, group))
    return _Out(groups, disqualified, players)


def _hands_by_player(event: Event) -> dict[int, tuple[int, int]]:
    return {
        row["player_id"]: (int(row["played"] or 0), int(row["won"] or 0))
        for row in Standing.objects.filter(player__event=event)
        .values("player_id")
        .annotate(played=Sum("hands_played"), won=Sum("hands_won"))
    }


def final_standings(event: Event) -> list[dict[str, Any]]:
    """The event's final results, once its last day has closed (RULES §4b): the players of
    the last day by their money at its close, then those out after each earlier day, later
    days first, each by their money at the close that put them out; the disqualified last,
    outside the ranking. Each row's ``rank`` is its final place."""
    closed = list(event.days.filter(status=Day.Status.CLOSED).order_by("number"))
    if not closed:
        return []
    last = closed[-1].number
    out = _out_groups(event, closed, still_in=())
    rows = out.rows(last)
    for r in rows:
        if r["group"] == (1, -last) and r["mark"] == IN:
            r["standing"] = "in"  # played the last day: no cut, no mark
    rows += out.disqualified
    _renumber(rows)
    return rows
