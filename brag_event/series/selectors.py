"""A series' standings: every player's points over the final results of its events.

* **Places.** An event counts once its last day has closed: each player's finishing place is
  their place in the event's final results (RULES §4b, "Standings after a close": the last
  day's players by money at its close, then those out after each earlier day, later days
  first); players tied on money in one group share the place, and each scores that place's
  points (three players tied second each score place 2's).
  A place beyond the table scores 0; a disqualified player scores 0 and is marked so. An event
  still in play is listed and scores nothing yet.
* **The same player in two events.** Each entry into an event is a ``Player`` of one
  ``Person`` (players.people): a series matches entries by their person, not by name — one
  person entered under two spellings is one row (shown by the person's name), two people who
  share a name are two rows (told apart by their membership numbers).
* **Ties** (``TIE_RULE``): more points first; then countback — more first places, then more
  second places, and so on down the table; players still equal share the rank and are listed
  by name."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from brag_event.events.models import Day, Event
from brag_event.players.models import Person, Player
from brag_event.standings.results import final_standings

from .models import Series

TIE_RULE = (
    "Equal points are split by countback: more first places, then more second places, and so "
    "on; players still equal share the place."
)


@dataclass
class SeriesEventColumn:
    event: Event
    final: bool  # its last day has closed: its places count
    players: int


@dataclass
class SeriesRow:
    key: str
    name: str
    points: int = 0
    places: dict[int, int | None] = field(default_factory=dict)  # event id → place (None: DQ)
    scored: dict[int, int] = field(default_factory=dict)  # event id → points
    rank: int = 0
    event_cells: list[dict[str, Any]] = field(default_factory=list)  # one a column, in order

    @property
    def countback(self) -> tuple[int, ...]:
        """How many times the player finished 1st, 2nd, … (for the tie rule)."""
        places = [p for p in self.places.values() if p]
        deepest = max(places, default=0)
        return tuple(places.count(n) for n in range(1, deepest + 1))

    def cells(self, columns: list[SeriesEventColumn]) -> list[dict[str, Any]]:
        out = []
        for c in columns:
            eid = c.event.pk
            out.append(
                {
                    "event": c.event.name,
                    "played": eid in self.places,
                    "place": self.places.get(eid),
                    "points": self.scored.get(eid, 0),
                    "final": c.final,
                }
            )
        return out


@dataclass
class SeriesStandings:
    series: Series
    columns: list[SeriesEventColumn]
    rows: list[SeriesRow]
    tie_rule: str = TIE_RULE


def final_places(event: Event) -> list[tuple[int, int | None]] | None:
    """``(person id, place)`` of every player in the event's final results
    (``standings.results.final_standings``: the last day's players first, then those out after
    each earlier day; place ``None``: the disqualified), or ``None`` while its last day has not
    closed."""
    last = event.days.order_by("-number").first()
    if last is None or last.status != Day.Status.CLOSED:
        return None
    rows = final_standings(event)
    person = dict(
        Player.objects.filter(pk__in=[r["player"] for r in rows]).values_list("pk", "person_id")
    )
    return [(person[r["player"]], r["rank"]) for r in rows]


def series_standings(series: Series) -> SeriesStandings:
    points = [int(p) for p in series.points]
    columns: list[SeriesEventColumn] = []
    rows: dict[int, SeriesRow] = {}
    finals: list[tuple[Event, list[tuple[int, int | None]] | None]] = []
    for entry in series.entries.select_related("event").order_by("event__created_at", "event_id"):
        finals.append((entry.event, final_places(entry.event)))
    people = {
        p.pk: p
        for p in Person.objects.filter(
            pk__in={person for _e, places in finals for person, _p in places or []}
        )
    }
    # Two people of one name are told apart by their numbers.
    names = Counter(p.name_key for p in people.values())
    for event, places in finals:
        columns.append(SeriesEventColumn(event, places is not None, len(places or [])))
        for person_id, place in places or []:
            person = people[person_id]
            name = person.name if names[person.name_key] == 1 else str(person)
            row = rows.setdefault(person_id, SeriesRow(key=str(person_id), name=name))
            scored = points[place - 1] if place is not None and place <= len(points) else 0
            row.places[event.pk] = place
            row.scored[event.pk] = scored
            row.points += scored
    ranked = sorted(rows.values(), key=lambda r: (-r.points, _negated(r.countback), r.name))
    previous: tuple[int, tuple[int, ...]] | None = None
    for index, row in enumerate(ranked, start=1):
        standing = (row.points, _negated(row.countback))
        row.rank = ranked[index - 2].rank if standing == previous else index
        previous = standing
        row.event_cells = row.cells(columns)
    return SeriesStandings(series, columns, ranked)


def _negated(countback: tuple[int, ...]) -> tuple[int, ...]:
    # More firsts first: compare the counts descending (a longer tuple with the same counts so
    # far has a further place: padding with zeros keeps them equal).
    return tuple(-n for n in countback) + (0,) * (100 - len(countback))
