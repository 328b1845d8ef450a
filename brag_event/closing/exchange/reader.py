"""Reading a results exchange document (``brag-results/1``), leniently.

Lenient: fields it does not know are ignored (a later writer may add some), optional fields
that are missing take their defaults (docs/results-exchange.md, "Reading"), a whole number may
come as digits in a string, and text is cleaned of extra spaces. What it cannot use is refused
— the first problem found, as a ``ServiceError`` with a code of ``REFUSALS``, a sentence that
says where in the file and what is wrong, and ``details.at``: the place as a JSON pointer
("/days/1/results/3/number"). Reading changes nothing; ``services.event_import_results`` then
checks the document against this installation (its events and people)."""

from __future__ import annotations

import datetime as dt
import json
import math
import uuid
from dataclasses import dataclass, field
from typing import Any, NoReturn

from django.conf import settings
from django.core.exceptions import ValidationError

from brag_event.core.errors import ServiceError
from brag_event.core.words import at_most
from brag_event.engine import MONEY_MAX
from brag_event.events.models import Day
from brag_event.events.services import rules_validate
from brag_event.events.zones import validate_time_zone
from brag_event.floor.models import Penalty
from brag_event.players.names import NAME_MAX, player_group_clean, player_name_clean
from brag_event.players.people import NUMBER_MAX

from .document import DAY_RULES, FORMAT

# Every refusal of a document, by code: what it means (docs/results-exchange.md lists them; a
# test keeps the two in step).
REFUSALS: dict[str, str] = {
    "exchange_too_large": "the file is larger than an import takes",
    "exchange_not_json": "the file is not JSON text",
    "exchange_not_results": "the file is JSON but no results exchange document (no format)",
    "exchange_format": "the document is in another format or a version not read here",
    "exchange_missing": "a field that is needed is missing",
    "exchange_invalid": "a field's value is of the wrong kind or out of range",
    "exchange_number_twice": "a membership number is among the event's people twice",
    "exchange_uid_twice": "two of the event's people have the same uid",
    "exchange_unknown_number": "a day's results, field or a penalty name a membership number "
    "that is not among the event's people",
    "exchange_results_twice": "a day's results or field name the same person twice",
    "exchange_day_twice": "two days have the same number",
    "exchange_unknown_day": "a penalty names a day that is not among the event's days",
    "exchange_rules": "a day's rules are refused by the rules engine",
    "exchange_event_here": "the event is here already (imported before, or this "
    "installation's own): importing it again would count its results twice",
    "exchange_event_name_taken": "another event here has the event's name",
    "exchange_name_mismatch": "a file without uids names a membership number that belongs "
    "here to someone of another name",
    "exchange_same_person": "two of the file's people are one person here (merged duplicates)",
    "exchange_number_taken": "a new person's membership number was given here a moment ago",
}

TEXT_MAX = 500  # a ruling's words (floor.services.TEXT_MAX)
REASON_MAX = 120  # a qualification's reason (players.Qualification.reason)
LIFT_MAX = 200  # a lift's reason (floor.Penalty.lift_reason)
CLUB_MAX = 80
CURRENCY_MAX = 12
EVENT_NAME_MAX = 120
SOURCE_MAX = 200
DAYS_MAX = 100
# The uid of an event whose file names none: derived from the document, so that the same file
# is the same event (and refused the second time).
# The times a file can give: from 1970 to now (a day's close, a ruling, a lift happened; a
# day of grace for a clock ahead), and a day's date up to a year ahead (a day planned, never
# played). Outside: refused in words, never a time no page can show (9999, year 1).
EARLIEST = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
GRACE = dt.timedelta(days=1)
DATE_AHEAD = dt.timedelta(days=366)
# The versions of a day's published root read here (engine.chain: brag-day/1 to /3).
ROOT_VERSIONS = (1, 2, 3)
# The format's version as a number, which a document may also say at its root ("version": 1).
FORMAT_VERSION = 1
UID_NAMESPACE = uuid.UUID("6f0e7c1e-3b8a-4c55-9a43-2f1c5d0b7a11")


@dataclass(frozen=True)
class EventIn:
    uid: uuid.UUID
    name: str
    currency: str
    time_zone: str
    starting_money: int | None
    source: str  # where the file says it came from, in words ("" if it does not say)


@dataclass(frozen=True)
class PersonIn:
    number: int  # the writing installation's label
    name: str
    club: str
    group: str
    withdrawn: bool
    uid: uuid.UUID | None = None  # who they are anywhere; None in a file written before it


@dataclass(frozen=True)
class RootIn:
    version: int
    value: str
    hands: int
    money_seq: int | None
    money_head: str


@dataclass(frozen=True)
class RowIn:
    number: int
    rank: int | None  # None: disqualified, outside the ranking
    money: int
    change: int
    hands_played: int
    hands_won: int
    qualified: bool
    mark: str = ""  # standings.results' mark at the close; "" when the file says none


@dataclass(frozen=True)
class DayIn:
    number: int
    date: dt.date | None
    closed_at: dt.datetime | None
    rules: dict[str, Any]
    qualify_rule: str
    qualify_top: int | None
    root: RootIn | None
    field: list[tuple[int, str]]  # (membership number, reason)
    results: list[RowIn]


@dataclass(frozen=True)
class PenaltyIn:
    number: int
    day: int | None
    kind: str
    hands: int
    lifted: bool
    lifted_at: dt.datetime | None
    lift_reason: str


@dataclass(frozen=True)
class RulingIn:
    at: dt.datetime | None
    what_happened: str
    decision: str
    penalties: list[PenaltyIn]


@dataclass(frozen=True)
class DocumentIn:
    event: EventIn
    people: list[PersonIn]
    days: list[DayIn]
    rulings: list[RulingIn] = field(default_factory=list)


def document_parse(data: bytes | str) -> Any:
    """The JSON value of a file's bytes (UTF-8, a byte-order mark allowed); else
    ``exchange_not_json`` saying where it stops being JSON."""
    try:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise ServiceError(
            "exchange_not_json",
            "The file is not a results file: it is not text (UTF-8). Choose the .json file "
            "exported by the other installation.",
            details={"at": ""},
        ) from None
    try:
        return json.loads(text, parse_int=whole_or_long)
    except json.JSONDecodeError as err:
        raise ServiceError(
            "exchange_not_json",
            f"The file is not JSON: {err.msg.lower()} at line {err.lineno}, column "
            f"{err.colno}. Choose the .json file exported by the other installation.",
            details={"at": "", "line": err.lineno, "column": err.colno},
        ) from None
    except RecursionError:
        raise ServiceError(
            "exchange_not_json",
            "The file is not a results file: it is nested too deeply.",
            details={"at": ""},
        ) from None


DIGITS_MAX = 40  # a whole number of the file longer than this is refused where it stands


class _Long(str):
    """A whole number of the file too long to be anything it could mean (a 5,001-digit
    "number"): kept as its digits, so that the field it stands in refuses it in words, where
    Python's own reading would stop at 4,300 digits with an error naming no place."""

    @property
    def digits(self) -> int:
        return len(self.lstrip("-"))


def whole_or_long(text: str) -> int | _Long:
    """A whole number of the file as ``json.loads`` reads it (``parse_int``)."""
    return int(text) if len(text.lstrip("-")) <= DIGITS_MAX else _Long(text)


# ------------------------------------------------------------------ the parts of a document


@dataclass(frozen=True)
class Place:
    """Where in the document a value is: in words for people ("day 2's results, row 4") and as
    a JSON pointer for programs."""

    words: str
    pointer: str

    def at(self, key: str | int, words: str | None = None) -> Place:
        return Place(words or self.words, f"{self.pointer}/{key}")

    def refuse(self, code: str, message: str, **details: Any) -> NoReturn:
        raise ServiceError(code, message, details={"at": self.pointer, **details})

    def invalid(self, key: str, message: str) -> NoReturn:
        """The field ``key`` here is of the wrong kind or out of range."""
        self.at(key).refuse("exchange_invalid", message, field=key)


def _shown(value: Any) -> str:
    if isinstance(value, _Long):
        return f"a number of {value.digits:,} digits"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "…"


def _hex64(text: str) -> bool:
    """64 hexadecimal digits, either case: a root or a money record's head."""
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text.lower())


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def _of(label: str, place: Place) -> str:
    """ "The money of day 1's results, row 3"."""
    return f"The {label} of {place.words}"


MISSING = object()


def _get(obj: dict[str, Any], key: str, place: Place, label: str, default: Any = MISSING) -> Any:
    value = obj.get(key, MISSING)
    if value is MISSING or value is None:
        if default is MISSING:
            place.at(key).refuse(
                "exchange_missing",
                f"{_capital(place.words)} has no {label}.",
                field=key,
            )
        return default
    return value


def _object(value: Any, place: Place, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        place.refuse(
            "exchange_invalid",
            f"{_capital(place.words)} must be {what}, not {_shown(value)}.",
        )
    return value


def _list(obj: dict[str, Any], key: str, place: Place, label: str, *, needed: bool) -> list[Any]:
    value = _get(obj, key, place, label, MISSING if needed else [])
    if not isinstance(value, list):
        place.invalid(
            key,
            f"{_of(label, place)} must be a list, not {_shown(value)}.",
        )
    return value


def _whole(
    obj: dict[str, Any],
    key: str,
    place: Place,
    label: str,
    *,
    least: int,
    most: int,
    default: Any = MISSING,
) -> Any:
    """A whole number from ``least`` to ``most``: an integer, a number with nothing after the
    point (1043.0) or the digits of one in a string ("1043")."""
    value = _get(obj, key, place, label, default)
    if value is default and default is not MISSING:
        return default
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and not isinstance(value, _Long):
        text = value.strip()
        sign = -1 if text.startswith("-") else 1
        digits = text.removeprefix("-")
        if digits.isascii() and digits.isdigit() and len(digits) <= 18:
            number = sign * int(digits)
    if number is None or not least <= number <= most:
        place.invalid(
            key,
            f"{_of(label, place)} must be a whole number from {least:,} to "
            f"{most:,}, not {_shown(value)}.",
        )
    return number


MARKS = ("qualified", "out", "did_not_play", "withdrawn", "earlier", "disqualified", "in")


def _mark(row: dict[str, Any], place: Place, day: int, index: int) -> str:
    value = row.get("mark")
    if value is None:
        return ""
    if value not in MARKS:
        place.at("mark").refuse(
            "exchange_invalid",
            f"Day {day}'s results, row {index + 1}: the mark is one of qualified, out, "
            "did_not_play, withdrawn, earlier, disqualified or in.",
            field="mark",
        )
    return str(value)


def _flag(obj: dict[str, Any], key: str, place: Place, label: str, default: bool) -> bool:
    value = _get(obj, key, place, label, default)
    if not isinstance(value, bool):
        place.invalid(
            key,
            f"{_of(label, place)} must be true or false, not {_shown(value)}.",
        )
    return value


def _text(
    obj: dict[str, Any],
    key: str,
    place: Place,
    label: str,
    *,
    most: int | None,
    default: Any = MISSING,
    cut: bool = False,
) -> Any:
    """Text with its spaces collapsed; longer than ``most``: cut there (``cut``, for words that
    describe) or refused (for what identifies: names, clubs), said as every limit is said
    (``core.words.at_most``). ``most=None``: the caller checks the length once it has cleaned
    the text (a player's name)."""
    value = _get(obj, key, place, label, default)
    if value is default and default is not MISSING:
        return default
    if not isinstance(value, str) or isinstance(value, _Long):
        place.invalid(
            key,
            f"{_of(label, place)} must be text, not {_shown(value)}.",
        )
    text = " ".join(value.split())
    if most is not None and len(text) > most:
        if cut:
            return text[:most]
        place.invalid(key, at_most(_of(label, place), most))
    if not text and default is MISSING:
        place.at(key).refuse(
            "exchange_missing", f"{_capital(place.words)} has no {label}.", field=key
        )
    return text


def _moment(obj: dict[str, Any], key: str, place: Place, label: str) -> dt.datetime | None:
    value = obj.get(key)
    if value is None:
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        found = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        place.invalid(
            key,
            f"{_of(label, place)} must be a date and time such as "
            f"2026-05-02T18:30:00+00:00, not {_shown(value)}.",
        )
    if found.tzinfo is None:
        found = found.replace(tzinfo=dt.UTC)  # a time without its offset: read as UTC
    try:
        at = found.astimezone(dt.UTC)
    except OverflowError:  # 0001-01-01T00:00:00+05:00 is before the first moment there is
        at = EARLIEST - dt.timedelta(days=1)
    latest = dt.datetime.now(dt.UTC) + GRACE
    if not EARLIEST <= at <= latest:
        place.invalid(
            key,
            f"{_of(label, place)} must be from {EARLIEST:%d %B %Y} to now, not {_shown(value)}: "
            "a results file tells what has happened.",
        )
    return found


def _date(obj: dict[str, Any], key: str, place: Place, label: str) -> dt.date | None:
    value = obj.get(key)
    if value is None or value == "":
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        found = dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        place.invalid(
            key,
            f"{_of(label, place)} must be a date such as 2026-05-02, not {_shown(value)}.",
        )
    latest = (dt.datetime.now(dt.UTC) + DATE_AHEAD).date()
    if not EARLIEST.date() <= found <= latest:
        place.invalid(
            key,
            f"{_of(label, place)} must be from {EARLIEST:%d %B %Y} to {latest:%d %B %Y}, not "
            f"{_shown(value)}.",
        )
    return found


# ------------------------------------------------------------------ the document


def document_read(document: Any) -> DocumentIn:
    """The document's event, people, days and rulings, read leniently (the module's
    docstring), or the first refusal."""
    top = Place("the file", "")
    if not isinstance(document, dict) or "format" not in document:
        top.refuse(
            "exchange_not_results",
            f"This is not a results exchange file: it names no format {FORMAT}. Choose the "
            "results file (.json) exported by the other installation.",
        )
    found = document["format"]
    if found != FORMAT:
        words = _shown(found)
        newer = isinstance(found, str) and found.startswith("brag-results/")
        top.at("format").refuse(
            "exchange_format",
            f"This file is in the format {words}"
            + (", a version this installation does not read" if newer else "")
            + f": it reads {FORMAT}. "
            + ("Export the file again from an installation that writes it." if newer else ""),
            found=str(found)[:40],
        )
    said = document.get("version")
    if said is not None and said != FORMAT_VERSION:
        top.at("version").refuse(
            "exchange_format",
            f"This file says it is version {_shown(said)} of its format: this installation "
            f"reads {FORMAT} (version {FORMAT_VERSION}). Export the file again from an "
            "installation that writes it.",
            found=str(said)[:40],
        )
    event = _event(document, top)
    people = _people(document, top)
    numbers = {p.number for p in people}
    days = _days(document, top, numbers)
    rulings = _rulings(document, top, numbers, {d.number for d in days})
    if "uid" not in (document.get("event") or {}):
        event = EventIn(
            uid=_derived_uid(document),
            name=event.name,
            currency=event.currency,
            time_zone=event.time_zone,
            starting_money=event.starting_money,
            source=event.source,
        )
    return DocumentIn(event=event, people=people, days=days, rulings=rulings)


def _derived_uid(document: dict[str, Any]) -> uuid.UUID:
    kept = {k: document.get(k) for k in ("event", "people", "days", "rulings")}
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, default=str)
    return uuid.uuid5(UID_NAMESPACE, text)


def _event(document: dict[str, Any], top: Place) -> EventIn:
    place = Place("the event", "/event")
    obj = _object(_get(document, "event", top, "event"), place, "an object")
    uid_text = obj.get("uid")
    uid = uuid.uuid4()
    if uid_text is not None:
        try:
            uid = uuid.UUID(str(uid_text))
        except ValueError:
            place.invalid(
                "uid",
                f"The event's uid must be a UUID, not {_shown(uid_text)}.",
            )
    name = _text(obj, "name", place, "name", most=EVENT_NAME_MAX)
    currency = _text(obj, "currency", place, "currency", most=CURRENCY_MAX, default="MB") or "MB"
    zone = _text(obj, "time_zone", place, "time zone", most=64, default=settings.TIME_ZONE)
    try:
        validate_time_zone(zone)
    except ValidationError:
        place.invalid(
            "time_zone",
            f"The event's time zone must be an IANA name such as Europe/London, not "
            f"{_shown(zone)}.",
        )
    money = _whole(
        obj, "starting_money", place, "starting money", least=0, most=MONEY_MAX, default=None
    )
    source = document.get("source")
    said = ""
    if isinstance(source, dict):
        parts = [source.get("software"), source.get("site")]
        said = " · ".join(" ".join(str(p).split()) for p in parts if isinstance(p, str) and p)
    return EventIn(uid, name, currency, zone, money, said[:SOURCE_MAX])


def _people(document: dict[str, Any], top: Place) -> list[PersonIn]:
    people: list[PersonIn] = []
    seen: set[int] = set()
    uids: dict[uuid.UUID, int] = {}
    for i, value in enumerate(_list(document, "people", top, "people", needed=True)):
        place = Place(f"person {i + 1} of the event's people", f"/people/{i}")
        obj = _object(value, place, "an object")
        number = _whole(obj, "number", place, "membership number", least=1, most=NUMBER_MAX)
        if number in seen:
            place.at("number").refuse(
                "exchange_number_twice",
                f"Membership number {number} is among the event's people twice.",
                number=number,
            )
        seen.add(number)
        name = player_name_clean(_text(obj, "name", place, "name", most=None))
        if not name:  # nothing left once cleaned (invisible characters only)
            place.at("name").refuse(
                "exchange_missing", f"{_capital(place.words)} has no name.", field="name"
            )
        if len(name) > NAME_MAX:  # the limit on the name as stored (players.names)
            place.invalid("name", at_most(_of("name", place), NAME_MAX))
        club = player_group_clean(_text(obj, "club", place, "club", most=CLUB_MAX, default=""))
        group = obj.get("group")
        group_text = (
            player_group_clean(_text(obj, "group", place, "group", most=CLUB_MAX, default=""))
            if group is not None
            else club
        )
        withdrawn = _flag(obj, "withdrawn", place, "withdrawn", False)
        uid = _uid(obj, place)
        if uid is not None:
            if uid in uids:
                place.at("uid").refuse(
                    "exchange_uid_twice",
                    f"Membership numbers {uids[uid]} and {number} of the event's people are one "
                    "person (the same uid): correct the file, then import again.",
                    numbers=[uids[uid], number],
                )
            uids[uid] = number
        people.append(PersonIn(number, name, club, group_text, withdrawn, uid))
    return people


def _uid(obj: dict[str, Any], place: Place) -> uuid.UUID | None:
    value = obj.get("uid")
    if value is None:
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        return uuid.UUID(value.strip())
    except ValueError:
        place.invalid("uid", f"{_capital(place.words)}'s uid must be a UUID, not {_shown(value)}.")


def _days(document: dict[str, Any], top: Place, numbers: set[int]) -> list[DayIn]:
    listed = _list(document, "days", top, "days", needed=True)
    if not listed:
        top.at("days").refuse("exchange_missing", "The file has no days.", field="days")
    days: dict[int, DayIn] = {}
    for i, value in enumerate(listed):
        place = Place(f"day {i + 1} of the file", f"/days/{i}")
        obj = _object(value, place, "an object")
        number = _whole(obj, "number", place, "number", least=1, most=DAYS_MAX)
        place = Place(f"day {number}", f"/days/{i}")
        if number in days:
            place.at("number").refuse(
                "exchange_day_twice", f"Day {number} is in the file twice.", day=number
            )
        days[number] = _day(obj, place, number, numbers)
    return [days[n] for n in sorted(days)]


def _day(obj: dict[str, Any], place: Place, number: int, numbers: set[int]) -> DayIn:
    rules_place = place.at("rules", f"day {number}'s rules")
    rules_obj = _object(_get(obj, "rules", place, "rules"), rules_place, "an object")
    defaults = Day().settings_dict()
    rules: dict[str, Any] = {}
    for name in DAY_RULES:
        default = defaults[name]
        value = rules_obj.get(name)
        if value is None:
            if default is None and name not in ("rake_cap", "award_confirm_from"):
                _get(rules_obj, name, rules_place, name.replace("_", " "))
            rules[name] = default
        elif isinstance(default, bool):
            rules[name] = _flag(rules_obj, name, rules_place, name.replace("_", " "), default)
        elif name == "see_cost":
            rules[name] = _text(rules_obj, name, rules_place, "see cost", most=6)
        else:
            rules[name] = _whole(
                rules_obj, name, rules_place, name.replace("_", " "), least=0, most=MONEY_MAX
            )
    try:
        rules_validate(dict(rules))
    except ServiceError as err:
        rule = err.details.get("field")
        rules_place.at(str(rule or "")).refuse(
            "exchange_rules", f"Day {number}'s rules: {err.message}", field=rule
        )
    qualify = obj.get("qualification")
    rule, top = "afford", None
    if qualify is not None:
        q_place = place.at("qualification", f"day {number}'s qualification")
        q = _object(qualify, q_place, "an object")
        rule = _text(q, "rule", q_place, "rule", most=10, default="afford")
        if rule not in ("afford", "top"):
            q_place.invalid(
                "rule",
                f"Day {number}'s qualification rule must be “afford” or “top”, not {_shown(rule)}.",
            )
        top = _whole(q, "top", q_place, "top N", least=1, most=100_000, default=None)
        if rule == "top" and top is None:
            q_place.at("top").refuse(
                "exchange_missing", f"Day {number}'s qualification has no top N.", field="top"
            )
    field_list = _list(obj, "field", place, "field", needed=False)
    field: list[tuple[int, str]] = []
    in_field: set[int] = set()
    for i, value in enumerate(field_list):
        f_place = Place(f"day {number}'s field, entry {i + 1}", f"{place.pointer}/field/{i}")
        entry = _object(value, f_place, "an object")
        who = _whole(entry, "number", f_place, "membership number", least=1, most=NUMBER_MAX)
        _known(who, numbers, f_place, f"Day {number}'s field")
        if who in in_field:
            f_place.at("number").refuse(
                "exchange_results_twice",
                f"Day {number}'s field names membership number {who} twice.",
                number=who,
            )
        in_field.add(who)
        field.append(
            (who, _text(entry, "reason", f_place, "reason", most=REASON_MAX, default="", cut=True))
        )
    results: list[RowIn] = []
    ranked: set[int] = set()
    for i, value in enumerate(_list(obj, "results", place, "results", needed=True)):
        r_place = Place(f"day {number}'s results, row {i + 1}", f"{place.pointer}/results/{i}")
        row = _object(value, r_place, "an object")
        who = _whole(row, "number", r_place, "membership number", least=1, most=NUMBER_MAX)
        _known(who, numbers, r_place, f"Day {number}'s results")
        if who in ranked:
            r_place.at("number").refuse(
                "exchange_results_twice",
                f"Day {number}'s results name membership number {who} twice.",
                number=who,
            )
        ranked.add(who)
        rank = _whole(row, "rank", r_place, "rank", least=1, most=1_000_000, default=None)
        out = _flag(row, "disqualified", r_place, "disqualified", rank is None)
        if rank is None and not out:
            r_place.at("rank").refuse(
                "exchange_missing",
                f"Day {number}'s results, row {i + 1} has no rank (only a disqualified "
                "player's row has none).",
                field="rank",
            )
        results.append(
            RowIn(
                number=who,
                rank=None if out else rank,
                money=_whole(row, "money", r_place, "money", least=0, most=MONEY_MAX),
                change=_whole(
                    row, "change", r_place, "change", least=-MONEY_MAX, most=MONEY_MAX, default=0
                ),
                hands_played=_whole(
                    row, "hands_played", r_place, "hands played", least=0, most=10**9, default=0
                ),
                hands_won=_whole(
                    row, "hands_won", r_place, "hands won", least=0, most=10**9, default=0
                ),
                qualified=_flag(row, "qualified", r_place, "qualified", False),
                mark=_mark(row, r_place, number, i),
            )
        )
    return DayIn(
        number=number,
        date=_date(obj, "date", place, "date"),
        closed_at=_moment(obj, "closed_at", place, "closing time"),
        rules=rules,
        qualify_rule=rule,
        qualify_top=top if rule == "top" else None,
        root=_root(obj, place, number),
        field=field,
        results=results,
    )


def _known(number: int, numbers: set[int], place: Place, whose: str) -> None:
    if number not in numbers:
        place.at("number").refuse(
            "exchange_unknown_number",
            f"{whose} name membership number {number}, who is not among the event's people.",
            number=number,
        )


def _root(obj: dict[str, Any], place: Place, number: int) -> RootIn | None:
    value = obj.get("root")
    if value is None:
        return None
    r_place = place.at("root", f"day {number}'s root")
    root = _object(value, r_place, "an object")
    hex_value = _text(root, "value", r_place, "value", most=64)
    if not _hex64(hex_value):
        r_place.invalid(
            "value",
            f"Day {number}'s root must be 64 hexadecimal digits, not {_shown(hex_value)}.",
        )
    head = _text(root, "money_head", r_place, "money record's head", most=64, default="")
    if head and not _hex64(head):
        r_place.invalid(
            "money_head",
            f"Day {number}'s money record head must be 64 hexadecimal digits, not {_shown(head)}.",
        )
    return RootIn(
        version=_version(root, r_place, number),
        value=hex_value.lower(),
        hands=_whole(root, "hands", r_place, "hands", least=0, most=10**9, default=0),
        money_seq=_whole(
            root,
            "money_seq",
            r_place,
            "money record's entry",
            least=0,
            most=2**31 - 1,
            default=None,
        ),
        money_head=head.lower(),
    )


def _version(root: dict[str, Any], place: Place, number: int) -> int:
    """A root's version, one of ``ROOT_VERSIONS`` (3 when the file says none)."""
    value = root.get("version", 3)
    if isinstance(value, bool) or value not in ROOT_VERSIONS:
        place.invalid(
            "version",
            f"Day {number}'s root is of version {_shown(value)}, which this installation does "
            f"not know: it reads versions 1 to {ROOT_VERSIONS[-1]} (brag-day/1 to "
            f"brag-day/{ROOT_VERSIONS[-1]}).",
        )
    return int(value)


KINDS = {str(k) for k in Penalty.Kind}


def _rulings(
    document: dict[str, Any], top: Place, numbers: set[int], days: set[int]
) -> list[RulingIn]:
    rulings: list[RulingIn] = []
    for i, value in enumerate(_list(document, "rulings", top, "rulings", needed=False)):
        place = Place(f"ruling {i + 1}", f"/rulings/{i}")
        obj = _object(value, place, "an object")
        penalties: list[PenaltyIn] = []
        for j, given in enumerate(_list(obj, "penalties", place, "penalties", needed=False)):
            p_place = Place(f"ruling {i + 1}'s penalty {j + 1}", f"/rulings/{i}/penalties/{j}")
            p = _object(given, p_place, "an object")
            who = _whole(p, "number", p_place, "membership number", least=1, most=NUMBER_MAX)
            _known(who, numbers, p_place, f"Ruling {i + 1}'s penalties")
            day = _whole(p, "day", p_place, "day", least=1, most=DAYS_MAX, default=None)
            if day is not None and day not in days:
                p_place.at("day").refuse(
                    "exchange_unknown_day",
                    f"Ruling {i + 1}'s penalty {j + 1} names day {day}, which is not among the "
                    "event's days.",
                    day=day,
                )
            kind = _text(p, "kind", p_place, "kind", most=20)
            if kind not in KINDS:
                p_place.invalid(
                    "kind",
                    f"Ruling {i + 1}'s penalty {j + 1} must be a warning, missed_hands or "
                    f"disqualified, not {_shown(kind)}.",
                )
            least = 1 if kind == Penalty.Kind.MISSED_HANDS else 0
            hands = _whole(
                p,
                "hands",
                p_place,
                "hands",
                least=least,
                most=1000,
                default=MISSING if least else 0,
            )
            lifted = p.get("lifted")
            lifted_at, reason = None, ""
            if lifted is not None:
                l_place = p_place.at("lifted", f"ruling {i + 1}'s penalty {j + 1}'s lift")
                lift = _object(lifted, l_place, "an object")
                lifted_at = _moment(lift, "at", l_place, "time")
                reason = _text(
                    lift, "reason", l_place, "reason", most=LIFT_MAX, default="", cut=True
                )
            penalties.append(
                PenaltyIn(who, day, kind, hands, lifted is not None, lifted_at, reason)
            )
        if not penalties:
            continue  # a ruling without a penalty: not part of the results
        rulings.append(
            RulingIn(
                at=_moment(obj, "at", place, "time"),
                what_happened=_text(
                    obj, "what_happened", place, "“what happened”", most=TEXT_MAX, cut=True
                ),
                decision=_text(obj, "decision", place, "decision", most=TEXT_MAX, cut=True),
                penalties=penalties,
            )
        )
    return rulings
