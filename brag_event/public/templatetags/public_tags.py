"""Filters of the public pages: money as the hall reads it, and names that stay apart."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from brag_event.players.selectors import name_apart

register = template.Library()


@register.filter
def who(shown: str) -> SafeString:
    """A player's name as shown, for a cell that may be too narrow: the name may be cut short
    (…), what tells it apart from a look-alike ("(no. 1043)") never is."""
    name, apart = name_apart(str(shown))
    if not apart:
        return format_html('<span class="who">{}</span>', name)
    return format_html('<span class="who">{}</span> <span class="apart">{}</span>', name, apart)


@register.filter
def money(value: int | None) -> str:
    """1,234 (en-GB grouping)."""
    return f"{int(value or 0):,}"


@register.filter
def signed(value: int | None) -> str:
    """+12, −5 (a real minus sign), 0."""
    number = int(value or 0)
    if number > 0:
        return f"+{number:,}"
    if number < 0:
        return f"\u2212{-number:,}"
    return "0"


@register.filter
def trend(value: int | None) -> str:
    """The CSS class of a change: up, down or flat."""
    number = int(value or 0)
    return "up" if number > 0 else "down" if number < 0 else "flat"


@register.filter
def ordinal(value: int | None) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st (a finishing place)."""
    number = int(value or 0)
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"
