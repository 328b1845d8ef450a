"""The seating draw keeps clubs and groups apart: whenever tables exist on which no two players of
one group sit, the draw finds such tables (checked against a maximum flow computed by scipy, an
independent answer to "does a separating draw exist?"); when none exists it says which groups
share, spread as evenly as the tables allow; and it stays reproducible from its seed."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_array
from scipy.sparse.csgraph import maximum_flow

from brag_event.events.services import day_open, event_create_flash
from brag_event.players.services import player_register
from brag_event.tables.seating import seat_numbers, seating_draw, seating_plan, seating_plan_apart
from tests.factories import user_in


def separable(sizes: list[int], table_sizes: list[int]) -> bool:
    """Whether groups of ``sizes`` players fit on tables of ``table_sizes`` seats with no two of
    one group at a table: a maximum flow source → group (its size) → table (1 each) → sink (the
    table's seats) that carries every grouped player."""
    groups, tables = len(sizes), len(table_sizes)
    nodes = 2 + groups + tables  # 0 source, 1 sink, then groups, then tables
    graph = np.zeros((nodes, nodes), dtype=np.int32)
    for g, size in enumerate(sizes):
        graph[0, 2 + g] = size
        for t in range(tables):
            graph[2 + g, 2 + groups + t] = 1
    for t, seats in enumerate(table_sizes):
        graph[2 + groups + t, 1] = seats
    flow = maximum_flow(csr_array(graph), 0, 1).flow_value
    return bool(flow == sum(sizes))


def world(group_sizes: list[int], loners: int) -> tuple[list[tuple[int, str, int]], dict[int, str]]:
    players: list[tuple[int, str, int]] = []
    groups: dict[int, str] = {}
    pk = 0
    for g, size in enumerate(group_sizes):
        for _ in range(size):
            pk += 1
            players.append((pk, f"P{pk}", 100))
            # Spellings differ: a group is compared as names are.
            groups[pk] = f"Club {g}" if pk % 2 else f"  CLUB   {g} "
    for _ in range(loners):
        pk += 1
        players.append((pk, f"P{pk}", 100))
    return players, groups


def group_of(groups: dict[int, str], pk: int) -> str:
    return " ".join(groups.get(pk, "").split()).casefold()


@settings(max_examples=300, deadline=None)
@given(
    group_sizes=st.lists(st.integers(min_value=1, max_value=9), max_size=8),
    loners=st.integers(min_value=0, max_value=25),
    seats=st.integers(min_value=2, max_value=10),
    seed=st.text(max_size=12),
)
def test_groups_are_kept_apart_whenever_they_can_be(
    group_sizes: list[int], loners: int, seats: int, seed: str
) -> None:
    players, groups = world(group_sizes, loners)
    tables, shared = seating_plan_apart(players=players, seats=seats, seed=seed, groups=groups)
    n = len(players)
    # The draw's own rules hold: as few tables as the seats allow, sizes within one.
    assert len(tables) == math.ceil(n / seats)
    sizes = [len(t) for t in tables]
    assert all(0 < s <= seats for s in sizes)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
    assert Counter(p for t in tables for p in t) == Counter(players)
    # Reproducible: the same seed, players (in any order) and groups give the same tables.
    again = seating_plan_apart(
        players=list(reversed(players)), seats=seats, seed=seed, groups=dict(groups)
    )
    assert again == (tables, shared)
    together = {
        g: c for g, c in Counter(group_of(groups, p) for p, *_ in players).items() if g and c > 1
    }
    sharing = {
        (g, k)
        for k, t in enumerate(tables)
        for g, c in Counter(group_of(groups, p[0]) for p in t).items()
        if g and c > 1
    }
    possible = separable(list(together.values()), sizes)
    if possible:
        assert not sharing, "a separating draw exists, yet two of a group share a table"
        assert shared == []
    else:
        assert shared, "no separating draw exists, and the draw did not say so"
    # What it says is what it did: every group sharing a table is listed, at those tables.
    said = {(" ".join(s.group.split()).casefold(), t) for s in shared for t in s.at}
    assert said == sharing
    # A group with more players than tables is spread as evenly as the tables allow.
    for g, c in together.items():
        per_table = [sum(group_of(groups, p[0]) == g for p in t) for t in tables]
        assert max(per_table) <= math.ceil(c / len(tables)) or not possible


def test_a_group_larger_than_the_tables_is_spread_and_named() -> None:
    players, groups = world([7], 11)  # 18 players, 3 tables of 6
    tables, shared = seating_plan_apart(players=players, seats=6, seed="x", groups=groups)
    per_table = sorted(sum(p[0] in groups for p in t) for t in tables)
    assert per_table == [2, 2, 3]
    assert len(shared) == 1 and shared[0].players == 7
    assert sorted(len(ids) for ids in shared[0].at.values()) == [2, 2, 3]


def test_without_groups_the_tables_are_those_drawn_before_groups() -> None:
    players = [(i, f"P{i}", 100) for i in range(1, 26)]
    lone = {1: "Rovers", 2: "Harriers"}  # groups of one change nothing
    assert seating_plan(players=players, seats=6, seed="old", groups=lone) == seating_plan(
        players=players, seats=6, seed="old"
    )


def test_groups_change_the_seed_s_draw_only_where_they_must() -> None:
    players, groups = world([3, 3, 2], 10)
    plans = {
        str(seating_plan(players=players, seats=6, seed=str(s), groups=groups)) for s in range(8)
    }
    assert len(plans) > 1  # still drawn at random


# The draw service and its page --------------------------------------------------------------


@pytest.mark.django_db
def test_the_draw_keeps_a_club_apart_and_shows_it() -> None:
    event = event_create_flash(name="FLASH", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    for i in range(12):
        player_register(
            event=event,
            name=f"Player {i:02d}",
            starting_money=1000,
            group="Rovers CC" if i < 2 else ("rovers  cc" if i == 2 else ""),
            by=None,
        )
    draw = seating_draw(day=day, seed="apart", by=None)
    at = {s["name"]: t["table"] for t in draw.plan for s in t["seats"]}
    rovers = [at[f"Player {i:02d}"] for i in range(3)]
    assert len(draw.plan) == 2
    # Three Rovers, two tables: they cannot all be apart, and the draw says so.
    assert sorted(Counter(rovers).values()) == [1, 2]
    assert draw.apart["groups"] == 1
    [shared] = draw.apart["shared"]
    assert shared["group"] == "Rovers CC" and shared["players"] == 3 and shared["tables"] == 2
    assert len(shared["at"]) == 1 and len(shared["at"][0]["names"]) == 2
    groups = {s["name"]: s["group"] for t in draw.plan for s in t["seats"]}
    assert groups["Player 02"] == "rovers cc" and groups["Player 05"] == ""
    # Reproducible from the seed.
    assert seating_draw(day=day, seed="apart", by=None).plan == draw.plan


@pytest.mark.django_db
def test_the_draw_page_names_the_groups(client: Client) -> None:
    client.force_login(user_in("organiser", "org"))
    event = event_create_flash(name="FLASH", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    for i in range(10):
        player_register(
            event=event,
            name=f"Player {i:02d}",
            starting_money=1000,
            group="Harriers" if i < 2 else "",
            by=None,
        )
    draw = seating_draw(day=day, seed="page", by=None)
    page = client.get(f"/organiser/days/{day.pk}/seating/?draw={draw.pk}")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Club or group" in text and text.count(">Harriers<") == 2
    assert "kept apart" in text and "share table" not in text
    at = [t["table"] for t in draw.plan for s in t["seats"] if s["group"] == "Harriers"]
    assert len(set(at)) == 2


def test_seat_numbers_still_spread() -> None:
    assert seat_numbers(4, 6) == [1, 2, 4, 5]
