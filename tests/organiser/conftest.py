"""Fixtures the console's tests share."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.closing.services import day_close_request
from brag_event.floor.services import floor_call_open
from brag_event.players.qualify import player_requalify
from brag_event.players.services import player_register
from brag_event.tables.seating import seating_draw
from brag_event.tables.withdraw import player_withdraw
from tests.factories import disqualify, played, world


@pytest.fixture
def event_played(django_capture_on_commit_callbacks: Any) -> Any:
    """Day 1 played (every hand start records its stored keys) and closed, a floor call, a
    disqualification, a withdrawal, day 2 drawn, a player let back in."""
    w = world(3)
    played(w)
    floor_call_open(table=w.table, note="seat 3 showed a card", by=None)
    disqualify(w.table, w.players[2])
    poor = player_register(event=w.event, name="Poor Pete", starting_money=50, by=None)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day2 = w.event.days.get(number=2)
    player_requalify(day=day2, player=poor, reason="sponsor's invitation", by=None)
    leaving = player_register(event=w.event, name="Wendy Went", starting_money=500, by=None)
    player_withdraw(player=leaving, reason="went home", by=None)
    seating_draw(day=day2, seed="words", by=None)
    return w
