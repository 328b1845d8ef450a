"""The floor's parts of other pages: the dashboard's open calls, a player's penalties."""

from __future__ import annotations

from typing import Any

from django import template

from brag_event.floor.selectors import open_calls, player_penalties

register = template.Library()


@register.simple_tag
def floor_open_calls(event: Any) -> list[Any]:
    return list(open_calls(event))


@register.simple_tag
def floor_penalties(player: Any) -> list[Any]:
    return list(player_penalties(player.pk))
