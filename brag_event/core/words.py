"""Words for people that many pages share: a count with its noun, said right for one and for
many ("1 player", "2 players") wherever Python writes a sentence (templates use ``pluralize``)."""

from __future__ import annotations


def counted(n: int, one: str, many: str = "") -> str:
    """``n`` grouped by thousands and its noun: ``counted(1, "player")`` is "1 player",
    ``counted(1200, "entry", "entries")`` is "1,200 entries"."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def at_most(what: str, most: int, unit: str = "characters") -> str:
    """A limit on what people type, said the one way it is said everywhere — a service's
    refusal, a form's field, a line of a file, the results reader: "A name is at most 80
    characters." (``what`` starts the sentence)."""
    return f"{what} is at most {most:,} {unit}."
