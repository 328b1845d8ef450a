"""Pages speak the language of organisers, dealers and players: every console and public page of
an event that has been played (hands, a ruling, a close, a draw, a player let back in) is read
as a person reads it — its text, without markup or scripts — and must hold no rule section
number, command line, internal key (``kept_hand_dead``) or Python value (a list, a dict)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from brag_event.players.imports import players_import_preview
from brag_event.players.links import player_path
from brag_event.players.models import Player
from tests.factories import signed_in, world

pytestmark = pytest.mark.django_db

# Nouns a count goes with, for the plural check ("1 players").
PLURALS = (
    "players", "tables", "hands", "days", "lines", "rows", "entries", "minutes", "seconds",
    "stacks", "seats", "dealers", "people", "turns", "flags", "sessions", "attempts", "records",
)  # fmt: skip

# What no page may say: a rule section, the rules document's name, a command line, a stored
# key (words joined by underscores), a Python list or dict, Python's None/True/False.
FORBIDDEN = [
    ("a rule section", re.compile(r"§")),
    ("the rules document", re.compile(r"\bRULES\b")),
    ("a command line", re.compile(r"python -m|\bmanage\.py\b")),
    ("an internal key", re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")),
    ("a Python list or dict", re.compile(r"\[\s*(?:'|\"|\d|\{|\[)|\{\s*'")),
    ("a Python value", re.compile(r"\b(?:None|True|False)\b")),
    ("a plural for one", re.compile(rf"(?<![\d,.])1 (?:{'|'.join(PLURALS)})\b")),
]


class Text(HTMLParser):
    """The text a person reads: no tags, no scripts or styles, no attribute values but a
    ``title`` (read on hover) and a form field's shown ``value``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "svg"):
            self.skipping += 1
        found = dict(attrs)
        if found.get("title"):
            self.parts.append(str(found["title"]))
        if tag == "input" and found.get("type") not in ("hidden", "password"):
            self.parts.append(str(found.get("value") or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "svg") and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def read(html: str) -> str:
    parser = Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


# Words an organiser types themselves: the players' import file's column names.
ALLOWED = {"starting_money"}


def problems(text: str) -> list[str]:
    found = []
    for what, pattern in FORBIDDEN:
        for match in pattern.finditer(text):
            if match.group(0) in ALLOWED:
                continue
            around = text[max(match.start() - 40, 0) : match.end() + 40]
            found.append(f"{what}: {match.group(0)!r} in …{around}…")
    return found


def test_no_page_shows_a_rule_section_a_command_an_internal_key_or_a_python_value(
    event_played: Any,
) -> None:
    w = event_played
    event = w.event
    organiser = signed_in("organiser", "org")
    days = list(event.days.order_by("number"))
    pages = [
        "/organiser/",
        "/organiser/events/new/",
        f"/organiser/events/{event.pk}/",
        f"/organiser/events/{event.pk}/live/",
        f"/organiser/events/{event.pk}/setup/",
        f"/organiser/events/{event.pk}/audit/",
        f"/organiser/events/{event.pk}/players/",
        f"/organiser/events/{event.pk}/integrity/",
        f"/organiser/events/{event.pk}/floor/",
        "/organiser/tokens/",
        "/organiser/lockouts/",
        *(f"/organiser/players/{p.pk}/" for p in Player.objects.filter(event=event)),
    ]
    for d in days:
        pages += [
            f"/organiser/days/{d.pk}/setup/",
            f"/organiser/days/{d.pk}/open/",
            f"/organiser/days/{d.pk}/close/",
            f"/organiser/days/{d.pk}/seating/",
            f"/organiser/days/{d.pk}/seating/balance/",
            f"/organiser/days/{d.pk}/seating/dealers/",
        ]
    public = Client()
    found: dict[str, list[str]] = {}
    for path in pages:
        response = organiser.get(path)
        assert response.status_code == 200, (path, response.status_code)
        html = response.content.decode()
        found[path] = problems(read(html))
        # A page's title names the page and the event; the product once, by the frame.
        title = re.search(r"<title>(.*?)</title>", html, re.S)
        if "/live/" not in path:  # the dashboard's live part: a fragment, no title
            assert title and title.group(1).count("Brag Event") <= 1, (path, title)
    # The close page's confirmation (the cut's preview) is a page of its own.
    day2 = days[1]
    asked = organiser.post(f"/organiser/days/{days[0].pk}/close/", {"qualify_rule": "afford"})
    found["close of day 1, asked again"] = problems(read(asked.content.decode()))
    public_pages = [
        f"/standings/{event.pk}/",
        f"/standings/{event.pk}/?big=1",
        *(f"/standings/{event.pk}/?day={d.number}" for d in days),
        player_path(w.players[0]),
    ]
    for path in public_pages:
        response = public.get(path)
        assert response.status_code == 200, path
        found[path] = problems(read(response.content.decode()))
    assert day2.number == 2
    slips = [f"{path}: {s}" for path, said in found.items() for s in said]
    assert not slips, "\n".join(slips)


def test_the_scan_finds_what_it_looks_for() -> None:
    """The scan itself: each kind of slip is caught, in text and in a title."""
    html = (
        "<p>as RULES §4b says</p><p>run python -m brag_event.engine verify</p>"
        "<td>kept_hand_dead 3</td><td>dealt [1, 2]</td><td>{'a': 1}</td><td>None</td>"
        "<p>over 1 hands, 21 hands, 1,001 hands</p>"
        '<span title="seats_returned">x</span><script>var a_b = [1];</script>'
    )
    said = problems(read(html))
    kinds = {line.split(":")[0] for line in said}
    assert kinds == {
        "a rule section",
        "the rules document",
        "a command line",
        "an internal key",
        "a Python list or dict",
        "a Python value",
        "a plural for one",
    }
    assert sum("a plural for one" in line for line in said) == 1
    assert not any("a_b" in line for line in said)  # scripts are not read
    assert any("seats_returned" in line for line in said)  # titles are


def test_messages_say_one_as_one() -> None:
    """A file of one player, imported and undone: the messages say "1 player", and the import's
    page says when, in the event's zone."""
    w = world(0, time_zone="Asia/Kolkata")
    organiser = signed_in("organiser", "org")
    batch = players_import_preview(event=w.event, data=b"name,starting money\nZed,900\n", by=None)
    page = f"/organiser/imports/{batch.pk}/"
    done = organiser.post(page, {"form": "confirm"}, follow=True).content.decode()
    assert "1 player registered." in done, read(done)
    assert re.search(r"registered \d+ \w+ \d{4}, \d\d:\d\d IST", read(done)), read(done)
    assert not problems(read(done))
    undone = organiser.post(page, {"form": "undo"}, follow=True).content.decode()
    assert "Import undone: 1 player withdrawn" in undone
    assert not problems(read(undone))


CONSOLE_TEMPLATES = ("organiser", "floor", "integrity")
TIME_PARTS = re.compile(r"(?<!\\)[HGghisAa]")  # hours, minutes, seconds, a.m./p.m.


def test_every_time_on_a_console_page_names_its_zone() -> None:
    """Each console page shows times in its event's zone (events.middleware); every date
    format with a time of day says which zone (``T``: IST, GMT…)."""
    root = Path(__file__).resolve().parents[2] / "templates"
    nameless = []
    for folder in CONSOLE_TEMPLATES:
        for template in sorted((root / folder).glob("*.html")):
            for fmt in re.findall(r'\|(?:date|time):"([^"]*)"', template.read_text()):
                if TIME_PARTS.search(fmt) and "T" not in fmt:
                    nameless.append(f"{folder}/{template.name}: {fmt!r}")
    assert not nameless, nameless
