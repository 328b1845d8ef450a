"""A small event built through the services, as in production, for browsing the admin."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.forms import BaseForm
from django.test.client import Client
from django.urls import reverse

from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, day_update_rules, event_create_flash
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_apply_action, hand_start, hand_void_last_action
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, Table
from brag_event.tables.services import seat_buy_in, seat_leave, table_create


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """``admin_client`` creates a superuser: hash its password quickly."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class Data:
    event: Event
    day: Day
    table: Table
    players: list[Player]
    seats: list[Seat]
    hand: Hand


def _act(hand: Hand, **action: Any) -> Hand:
    hand.refresh_from_db()
    return hand_apply_action(hand=hand, action=action, expected_seq=hand.next_seq, by=None)[0]


@pytest.fixture
def data(db: None) -> Data:
    event = event_create_flash(name="FLASH", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    table = table_create(day=day, by=None)
    players = [
        player_register(event=event, name=name, starting_money=1000, by=None)
        for name in ("Andy", "Bill", "Chris", "Dan")
    ]
    seats = [
        seat_buy_in(table=table, seat_number=i + 1, player=p, amount=200, by=None)
        for i, p in enumerate(players)
    ]
    seat_leave(seat=seats[3], by=None)  # one stay that has ended
    day_update_rules(day=event.days.get(number=2), changes={"ante": 15}, reason="x", by=None)
    hand = hand_start(table=table, by=None)
    hand = _act(hand, seat=2, action="look")
    hand = _act(hand, seat=2, action="bet", amount=20)
    hand, _state = hand_void_last_action(hand=hand, reason="wrong amount", by=None)
    hand = _act(hand, seat=2, action="bet", amount=10)
    for seat in seats:
        seat.refresh_from_db()
    day.refresh_from_db()
    return Data(event, day, table, players, seats, hand)


def admin_url(obj_or_model: Any, view: str, *args: Any) -> str:
    meta = obj_or_model._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=args)


def _put(data: dict[str, Any], name: str, value: Any) -> None:
    if value is None:
        data[name] = ""
    elif isinstance(value, bool):
        if value:
            data[name] = "on"
    elif isinstance(value, list | tuple):
        data[name] = [str(v) for v in value]
    else:
        data[name] = str(value)


def _form_fields(form: BaseForm, data: dict[str, Any]) -> None:
    for name in form.fields:
        _put(data, form[name].html_name, form[name].value())


def change_form_data(client: Client, url: str) -> dict[str, Any]:
    """What a browser would post back unchanged from an admin add/change page (the model form
    and the management and rows of every inline)."""
    response = client.get(url)
    assert response.status_code == 200
    context: Any = response.context
    data: dict[str, Any] = {}
    _form_fields(context["adminform"].form, data)
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        _form_fields(formset.management_form, data)
        for form in formset.forms:
            _form_fields(form, data)
    return data
