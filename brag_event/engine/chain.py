"""The tamper-evident record: a hash chain per hand and one root per day (SHA-256).

Every entry of a hand's record — each action as entered (voided ones too), each void, and any
other record a service chains onto the hand (a misdeal, a ruling …) — has a *canonical content*:
a JSON object with a ``kind`` and the hand's sequence number ``seq`` it took, written by
:func:`canonical` (keys sorted, no spaces, UTF-8). Its hash is::

    hash = SHA-256(previous hash (32 bytes) ‖ canonical content)

The chain of a hand starts from its *genesis*, the hash of the hand's set-up (:func:`hand_content`)
after 32 zero bytes; the entries follow in ``seq`` order, and the last hash is the hand's *head*.
A day's *root* (``brag-day/3``, :func:`record_root_v3`) starts from the event's identity and the
day's number (:func:`day_genesis`), chains its hands' heads in the order (table number, hand
number), then — when the day has any — the head of the day's own chain: the records that belong
to no hand (a ruling at a table with no hand yet or made while the day closes, a
disqualification lifted; :func:`day_record_genesis`), and last the event's money record as it
stood at the close (:class:`MoneyHead`: every transfer outside a hand, every seat taken or left).
Roots published before (``brag-day/1`` and ``/2``) started from ``{"kind": "day"}`` and had no
money record (:func:`day_root`, :func:`record_root`): still verified that way. Change any
field of any entry, drop one, reorder them, and every hash from there on changes — and with them
the head and the root. ``docs/hand-history.md`` ("The
tamper-evident record") says how a ``brag-hh/1`` export carries the hashes, and
:func:`verify_day` checks an exported day against a published root.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

ZERO: Final = "0" * 64


def canonical(content: Mapping[str, Any]) -> bytes:
    """The canonical bytes of a content object: JSON, keys sorted, no whitespace, UTF-8."""
    return json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()


def link(previous: str, content: Mapping[str, Any]) -> str:
    """The hash (64 hex digits) of ``content`` chained after ``previous`` (64 hex digits)."""
    return hashlib.sha256(bytes.fromhex(previous) + canonical(content)).hexdigest()


def entry_content(kind: str, seq: int, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical content of any chained record of a hand: its ``kind``, the ``seq`` it took
    in the hand's sequence, and its own fields (JSON values; ``kind`` and ``seq`` are reserved)."""
    if "kind" in fields or "seq" in fields:
        raise ValueError("'kind' and 'seq' are the chain's own fields")
    return {**fields, "kind": kind, "seq": seq}


def action_content(
    *,
    seq: int,
    seat: int | None,
    action: str,
    amount: int | None,
    hand: str | None,
    cards: str | None,
) -> dict[str, Any]:
    """An action as stored: every field present (``null`` when empty: the database's empty
    ``hand_choice`` and ``cards`` are written ``None`` by the caller)."""
    return entry_content(
        "action",
        seq,
        {"seat": seat, "action": action, "amount": amount, "hand": hand, "cards": cards},
    )


def void_content(*, seq: int, voids: int, reason: str) -> dict[str, Any]:
    """A void: the ``seq`` of the action it voids, and the reason given."""
    return entry_content("void", seq, {"voids": voids, "reason": reason})


def hand_content(
    *,
    table: int,
    number: int,
    dealer: int,
    rules: Mapping[str, Any],
    seats: Iterable[Mapping[str, Any]],
    carried_pot: int,
    carried_seat: int | None,
) -> dict[str, Any]:
    """A hand's set-up: its table and number, the rules as frozen on it, the dealer, the seats
    (seat, player, stack, sitting out; by seat) and what was carried in."""
    return {
        "kind": "hand",
        "table": table,
        "hand": number,
        "dealer": dealer,
        "rules": dict(rules),
        "seats": sorted(
            (
                {
                    "seat": s["seat"],
                    "player": s.get("player", ""),
                    "stack": s["stack"],
                    "sitting_out": bool(s.get("sitting_out", False)),
                }
                for s in seats
            ),
            key=lambda s: s["seat"],
        ),
        "carried": {"pot": carried_pot, "seat": carried_seat},
    }


def genesis(content: Mapping[str, Any]) -> str:
    """The first hash of a hand's chain: its set-up chained after zero."""
    return link(ZERO, content)


def day_entry(*, table: int, number: int, head: str) -> dict[str, Any]:
    return {"kind": "hand", "table": table, "hand": number, "head": head}


def day_root(heads: Iterable[tuple[int, int, str]]) -> str:
    """The root of a day's hands: a chain from zero over ``(table number, hand number, head)``
    of every hand of the day, taken in the order (table number, hand number). A day without
    hands has the root ``link(ZERO, {"kind": "day"})``. With no day-level records it is the
    day's root (:func:`record_root`)."""
    root = link(ZERO, {"kind": "day"})
    for table, number, head in sorted(heads):
        root = link(root, day_entry(table=table, number=number, head=head))
    return root


def day_record_genesis(day: int) -> str:
    """The first hash of a day's own chain (the records of the day that belong to no hand):
    ``{"kind": "day-record", "day": N}`` chained after zero. Its entries follow in the day's
    own ``seq`` order (1, 2 …), each ``entry_content(kind, seq, fields)``."""
    return link(ZERO, {"kind": "day-record", "day": day})


def day_genesis(event: str, day: int) -> str:
    """The first hash of a ``brag-day/3`` root: the event's identity (its UUID, which no
    organiser's edit changes) and the day's number chained after zero, so that a root names
    its event and its day even for a day without hands."""
    return link(ZERO, {"kind": "day", "event": event, "day": day})


def money_record_genesis(event: str, *, transfer: int = 0, seat: int = 0) -> str:
    """The first hash of an event's money record: every transfer that belongs to no hand and
    every seat taken or left, in the record's own ``seq`` order (``entry_content``). ``transfer``
    and ``seat``: the last ids written before the record existed (0 for an event that always
    had it), named here so that moving them breaks the record."""
    return link(
        ZERO,
        {"kind": "money-record", "event": event, "before": {"transfer": transfer, "seat": seat}},
    )


@dataclass(frozen=True, slots=True)
class MoneyHead:
    """Where the event's money record stood when a day closed: its last ``seq`` (0: none yet)
    and the hash at that entry (the genesis when none)."""

    seq: int
    head: str

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "head": self.head}


def record_root_v3(
    heads: Iterable[tuple[int, int, str]],
    day_head: str | None,
    *,
    event: str,
    day: int,
    money: MoneyHead | None,
) -> str:
    """A ``brag-day/3`` root: from :func:`day_genesis` (event and day), over the hands' heads
    in the order (table number, hand number), then the day's own head (if it has records of
    its own), then the event's money record as it stood at the close
    (``{"kind": "money", "seq": S, "head": H}``, when given)."""
    root = day_genesis(event, day)
    for table, number, head in sorted(heads):
        root = link(root, day_entry(table=table, number=number, head=head))
    if day_head is not None:
        root = link(root, {"kind": "day-record", "head": day_head})
    if money is not None:
        root = link(root, {"kind": "money", **money.to_dict()})
    return root


def record_root(heads: Iterable[tuple[int, int, str]], day_head: str | None = None) -> str:
    """A day's published root: the root of its hands (:func:`day_root`) and, if the day has
    day-level records (``day_head``: the last hash of its own chain), that head chained after
    it as ``{"kind": "day-record", "head": …}``. A day without day-level records keeps the
    hands' root, as roots were computed before the day's own chain existed."""
    root = day_root(heads)
    if day_head is not None:
        root = link(root, {"kind": "day-record", "head": day_head})
    return root


# ------------------------------------------------------------------------ verifying an export


@dataclass(frozen=True, slots=True)
class Problem:
    """The first thing found wrong: where (line, table, hand, seq) and what."""

    message: str
    line: int | None = None
    table: int | None = None
    hand: int | None = None
    seq: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message}
        for name in ("line", "table", "hand", "seq"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


class Tampered(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


_ACTION_FIELDS: Final = ("seat", "action", "amount", "hand", "cards")


def _action_of(raw: Mapping[str, Any]) -> dict[str, Any]:
    # The fields as written, not checked: a changed type changes the hash like a changed value.
    return entry_content("action", raw["seq"], {name: raw.get(name) for name in _ACTION_FIELDS})


def document_entries(doc: Mapping[str, Any]) -> list[tuple[dict[str, Any], Any]]:
    """(canonical content, stated hash) of every entry of a hand document, in ``seq`` order:
    the ``actions`` (each with its ``seq``) and the ``others`` (voided actions, voids and other
    chained records, each with ``kind`` and ``seq``)."""
    entries: list[tuple[dict[str, Any], Any]] = []
    for i, raw in enumerate(doc.get("actions") or []):
        if not isinstance(raw, Mapping) or type(raw.get("seq")) is not int:
            raise ValueError(f"action {i} has no seq")
        entries.append((_action_of(raw), raw.get("hash")))
    for i, raw in enumerate(doc.get("others") or []):
        if not isinstance(raw, Mapping) or type(raw.get("seq")) is not int:
            raise ValueError(f"others[{i}] has no seq")
        if not isinstance(raw.get("kind"), str):
            raise ValueError(f"others[{i}] has no kind")
        fields = {k: v for k, v in raw.items() if k not in ("kind", "seq", "hash")}
        if raw["kind"] == "action":
            content = _action_of(raw)
        else:
            content = entry_content(raw["kind"], raw["seq"], fields)
        entries.append((content, raw.get("hash")))
    entries.sort(key=lambda e: int(e[0]["seq"]))
    return entries


def document_header(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The set-up content of a hand document (its ``meta`` names the table and the hand)."""
    meta = doc.get("meta")
    if not isinstance(meta, Mapping) or type(meta.get("table")) is not int:
        raise ValueError("meta.table (the table number) is missing")
    if type(meta.get("hand")) is not int:
        raise ValueError("meta.hand (the hand number) is missing")
    carried = doc.get("carried") or {}
    if not isinstance(carried, Mapping):
        raise ValueError("carried is not an object")
    seats = doc.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, Mapping) for s in seats):
        raise ValueError("seats is not a list of objects")
    rules = doc.get("rules")
    if not isinstance(rules, Mapping):
        raise ValueError("rules is not an object")
    return hand_content(
        table=meta["table"],
        number=meta["hand"],
        dealer=doc.get("dealer"),  # type: ignore[arg-type]
        rules=rules,
        seats=seats,
        carried_pot=carried.get("pot", 0),
        carried_seat=carried.get("seat"),
    )


def _relinked(
    current: str,
    entries: list[tuple[dict[str, Any], Any]],
    what: str,
    changed: str,
    where: dict[str, Any],
) -> str:
    """``current`` with each of ``entries`` (content, stated hash) linked on; raises
    :class:`Tampered` at the first whose stated hash is not the recomputed one, saying that
    ``changed`` was changed, at ``where`` (the problem's line, table, hand)."""
    for content, stated in entries:
        current = link(current, content)
        if stated != current:
            raise Tampered(
                Problem(
                    f"{what} seq {content['seq']} ({content['kind']}) does not match its "
                    f"hash: {changed} was changed",
                    seq=content["seq"],
                    **where,
                )
            )
    return current


def verify_hand(doc: Mapping[str, Any], line: int | None = None) -> tuple[int, int, str]:
    """Recompute one hand document's chain: every stated ``hash`` and the ``head``. Returns
    (table, hand, head); raises :class:`Tampered` at the first entry whose stated hash is not
    the recomputed one."""
    try:
        header = document_header(doc)
        entries = document_entries(doc)
    except (ValueError, KeyError, TypeError) as err:
        raise Tampered(Problem(f"not a chained hand: {err}", line)) from None
    table, number = header["table"], header["hand"]
    if doc.get("cards"):
        raise Tampered(Problem("cards outside the chained show actions", line, table, number))
    where = {"line": line, "table": table, "hand": number}
    try:
        current = genesis(header)
        seqs = [int(content["seq"]) for content, _ in entries]
        if len(set(seqs)) != len(seqs):
            raise Tampered(Problem("two entries share one seq", **where))
        current = _relinked(
            current, entries, "entry", "it, an earlier entry or the hand's set-up", where
        )
    except (TypeError, ValueError) as err:  # a value JSON cannot hold canonically
        raise Tampered(Problem(f"cannot be hashed: {err}", **where)) from None
    if doc.get("head") != current:
        raise Tampered(Problem("the hand's head does not match its entries", **where))
    return table, number, current


def seal(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a hand document with its chain written in: the actions numbered ``seq`` 1, 2 …
    where they have none, each entry's ``hash`` and the ``head`` (what the export writes from the
    stored hashes; for tests and tools)."""
    out: dict[str, Any] = json.loads(json.dumps(doc))
    actions = out.setdefault("actions", [])
    for i, action in enumerate(actions, start=1):
        action.setdefault("seq", i)
    current = genesis(document_header(out))
    by_seq = {a["seq"]: a for a in [*actions, *(out.get("others") or [])]}
    for content, _ in document_entries(out):
        current = link(current, content)
        by_seq[content["seq"]]["hash"] = current
    out["head"] = current
    return out


def day_line(
    *,
    event: str,
    day: int,
    hands: int,
    root: str,
    entries: Iterable[Mapping[str, Any]] = (),
    head: str | None = None,
    money: MoneyHead | None = None,
    format: str | None = None,
) -> dict[str, Any]:
    """The last line of a day's export: what it is, its root, the day's own chain — each
    day-level record's canonical content with its ``hash``, and the chain's ``head`` (``null``
    when the day has none) — and (``brag-day/3``) the event's money record as it stood at the
    close (``{"seq", "head"}``, ``null`` before the close). ``event`` is the event's identity
    (its UUID) from ``brag-day/3`` on, its name before."""
    line = {
        "format": format or DAY_FORMAT,
        "event": event,
        "day": day,
        "hands": hands,
        "entries": [dict(e) for e in entries],
        "head": head,
        "root": root,
    }
    if line["format"] == DAY_FORMAT:
        line["money"] = money.to_dict() if money is not None else None
    return line


DAY_FORMAT: Final = "brag-day/3"
# The day line before the root named its event and day: same fields bar ``money``, the root
# starts from ``{"kind": "day"}``. Still read (roots were published that way).
DAY_FORMAT_2: Final = "brag-day/2"
# The day line before the day's own chain: no entries, the root is the hands' root. Still read.
DAY_FORMAT_1: Final = "brag-day/1"
DAY_FORMATS: Final = (DAY_FORMAT, DAY_FORMAT_2, DAY_FORMAT_1)

# What a line of a ``brag-day/3`` export may hold: any other field is refused (it would be
# printed or read as if it were checked, and it is not).
_DAY_LINE_FIELDS: Final = frozenset(
    {"format", "event", "day", "hands", "entries", "head", "root", "money", "published"}
)
_HAND_FIELDS: Final = frozenset(
    {"format", "rules", "dealer", "seats", "carried", "actions", "others", "head", "meta"}
)
_META_FIELDS: Final = frozenset({"event", "day", "table", "hand"})
_SEAT_FIELDS: Final = frozenset({"seat", "player", "stack", "sitting_out"})
_ACTION_LINE_FIELDS: Final = frozenset({"seq", "hash", *_ACTION_FIELDS})
_CARRIED_FIELDS: Final = frozenset({"pot", "seat"})


def _unknown(doc: Mapping[str, Any]) -> str | None:
    """The first field of a hand's line that a ``brag-day/3`` export never writes (and so
    nothing checks), named by its path; ``None`` when there is none."""
    checks: list[tuple[str, Any, frozenset[str]]] = [
        ("", doc, _HAND_FIELDS),
        ("meta.", doc.get("meta"), _META_FIELDS),
        ("carried.", doc.get("carried"), _CARRIED_FIELDS),
    ]
    checks += [(f"seats[{i}].", s, _SEAT_FIELDS) for i, s in enumerate(doc.get("seats") or [])]
    checks += [
        (f"actions[{i}].", a, _ACTION_LINE_FIELDS) for i, a in enumerate(doc.get("actions") or [])
    ]
    checks += [  # a voided action's other fields are not in its content
        (f"others[{i}].", o, frozenset({"kind", *_ACTION_LINE_FIELDS}))
        for i, o in enumerate(doc.get("others") or [])
        if isinstance(o, Mapping) and o.get("kind") == "action"
    ]
    for prefix, part, known in checks:
        if isinstance(part, Mapping):
            extra = sorted(str(k) for k in part if k not in known)
            if extra:
                return prefix + extra[0]
    return None


def _day_entries(doc: Mapping[str, Any], line: int) -> list[tuple[dict[str, Any], Any]]:
    raw_entries = doc.get("entries") or []
    if doc.get("format") == DAY_FORMAT_1 and raw_entries:
        raise Tampered(Problem("a brag-day/1 line carries no day-level entries", line))
    if not isinstance(raw_entries, list):
        raise Tampered(Problem("the day's entries are not a list", line))
    entries: list[tuple[dict[str, Any], Any]] = []
    for i, raw in enumerate(raw_entries):
        if not isinstance(raw, Mapping) or type(raw.get("seq")) is not int:
            raise Tampered(Problem(f"day entry {i} has no seq", line))
        if not isinstance(raw.get("kind"), str):
            raise Tampered(Problem(f"day entry {i} has no kind", line))
        fields = {k: v for k, v in raw.items() if k not in ("kind", "seq", "hash")}
        entries.append((entry_content(raw["kind"], raw["seq"], fields), raw.get("hash")))
    entries.sort(key=lambda e: int(e[0]["seq"]))
    return entries


def verify_day_record(doc: Mapping[str, Any], line: int) -> str | None:
    """Recompute the day's own chain from its ``brag-day`` line: each entry's stated ``hash``
    in ``seq`` order, then the ``head``. Returns the head (``None`` for a day without
    day-level records); raises :class:`Tampered` at the first entry that does not match."""
    entries = _day_entries(doc, line)
    day = doc.get("day")
    if type(day) is not int:
        raise Tampered(Problem("the day line has no day number", line))
    stated_head = doc.get("head")
    if not entries:
        if stated_head is not None:
            raise Tampered(Problem("the day's head names records the line does not carry", line))
        return None
    seqs = [int(content["seq"]) for content, _ in entries]
    if len(set(seqs)) != len(seqs):
        raise Tampered(Problem("two day-level entries share one seq", line))
    try:
        current = _relinked(
            day_record_genesis(day),
            entries,
            "day entry",
            "it or an earlier day-level entry",
            {"line": line},
        )
    except (TypeError, ValueError) as err:
        raise Tampered(Problem(f"a day entry cannot be hashed: {err}", line)) from None
    if stated_head != current:
        raise Tampered(Problem("the day's head does not match its entries", line))
    return current


@dataclass(frozen=True, slots=True)
class DayVerified:
    hands: int
    root: str
    entries: int = 0
    format: str = DAY_FORMAT
    event: str | None = None
    day: int | None = None


@dataclass(frozen=True, slots=True)
class _HandLine:
    line: int
    table: int
    hand: int
    event: Any
    day: Any
    unknown: str | None


def _money_of(doc: Mapping[str, Any], line: int) -> MoneyHead | None:
    money = doc.get("money")
    if money is None:
        return None
    if (
        not isinstance(money, Mapping)
        or set(money) != {"seq", "head"}
        or type(money["seq"]) is not int
        or money["seq"] < 0
        or not isinstance(money["head"], str)
        or len(money["head"]) != 64
    ):
        raise Tampered(
            Problem('the day\'s money record is not {"seq": N, "head": 64 hex digits}', line)
        )
    return MoneyHead(money["seq"], money["head"].lower())


def _check_v3(doc: Mapping[str, Any], line: int, hands: list[_HandLine]) -> tuple[str, int]:
    """A ``brag-day/3`` line and the hands before it: no field that nothing checks, the day
    line names its event and day, and every hand's ``meta`` names the same."""
    extra = sorted(str(k) for k in doc if k not in _DAY_LINE_FIELDS)
    if extra:
        raise Tampered(Problem(f"the day line has a field no export writes: {extra[0]}", line))
    event, day = doc.get("event"), doc.get("day")
    if not isinstance(event, str) or not event:
        raise Tampered(Problem("the day line does not name its event", line))
    if type(day) is not int:
        raise Tampered(Problem("the day line has no day number", line))
    if type(doc.get("hands")) is not int or doc["hands"] != len(hands):
        raise Tampered(
            Problem(
                f"the day line counts {doc.get('hands')} hands, the file has {len(hands)}", line
            )
        )
    for h in hands:
        if h.unknown is not None:
            raise Tampered(
                Problem(f"a field no export writes: {h.unknown}", h.line, h.table, h.hand)
            )
        if h.event != event or h.day != day:
            raise Tampered(
                Problem(
                    f"the hand names event {h.event!r} day {h.day!r}, the day line event "
                    f"{event!r} day {day}",
                    h.line,
                    h.table,
                    h.hand,
                )
            )
    return event, day


def verify_day(lines: Iterable[str | bytes], root: str | None) -> DayVerified:
    """Check an exported day (JSON Lines: one ``brag-hh/1`` hand per line and, last, the day's
    line with its own chain and ``root``) against the published ``root`` (or, without one,
    against the root the file states). Raises :class:`Tampered` naming the first bad hand,
    entry or field.

    A ``brag-day/3`` line's root starts from its event and day (:func:`record_root_v3`): each
    hand's ``meta`` must name the same event and day, the hands counted must be there, and a
    field no export writes is refused. An older ``brag-day/2`` or ``/1`` line is read as it
    was (its root was published that way): only the hands' and the day's chains are checked."""
    hands: list[_HandLine] = []
    heads: list[tuple[int, int, str]] = []
    day_doc: Mapping[str, Any] | None = None
    day_line_no = 0
    day_head: str | None = None
    seen: set[tuple[int, int]] = set()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            doc = json.loads(text)
        except (ValueError, UnicodeDecodeError) as err:
            raise Tampered(Problem(f"not JSON ({err})", number)) from None
        if not isinstance(doc, Mapping):
            raise Tampered(Problem("not a JSON object", number))
        if day_doc is not None:
            second = doc.get("format") in DAY_FORMATS
            raise Tampered(
                Problem("a second day line" if second else "a line after the day line", number)
            )
        if doc.get("format") in DAY_FORMATS:
            day_doc, day_line_no = doc, number
            day_head = verify_day_record(doc, number)
            continue
        table, hand, head = verify_hand(doc, number)
        if (table, hand) in seen:
            raise Tampered(Problem("the hand appears twice", number, table, hand))
        seen.add((table, hand))
        heads.append((table, hand, head))
        meta = doc.get("meta") or {}
        hands.append(
            _HandLine(number, table, hand, meta.get("event"), meta.get("day"), _unknown(doc))
        )
    # Without a day line the hands' root is computed the oldest way: it never matches a root
    # published as brag-day/3 (which names its event and day).
    day_doc = day_doc if day_doc is not None else {"format": DAY_FORMAT_1}
    fmt = str(day_doc["format"])
    event: str | None = None
    day: int | None = None
    if fmt == DAY_FORMAT:
        event, day = _check_v3(day_doc, day_line_no, hands)
        computed = record_root_v3(
            heads, day_head, event=event, day=day, money=_money_of(day_doc, day_line_no)
        )
    else:
        computed = record_root(heads, day_head)
    expected = root if root is not None else day_doc.get("root")
    if not isinstance(expected, str):
        raise Tampered(Problem("no root to check against: give --root"))
    if expected.lower() != computed:
        which = "published root" if root is not None else "root the file states"
        raise Tampered(
            Problem(
                f"the day's root {computed} is not the {which} {expected}: a hand or a "
                "day-level entry was added, removed, or rewritten with its hashes, or the "
                "day line names another event, day or money record"
            )
        )
    entries = len(day_doc.get("entries") or [])
    return DayVerified(len(heads), computed, entries, fmt, event, day)


__all__ = [
    "DAY_FORMAT",
    "DAY_FORMATS",
    "DAY_FORMAT_1",
    "DAY_FORMAT_2",
    "ZERO",
    "DayVerified",
    "MoneyHead",
    "Problem",
    "Tampered",
    "action_content",
    "canonical",
    "day_genesis",
    "day_line",
    "day_record_genesis",
    "day_root",
    "entry_content",
    "genesis",
    "hand_content",
    "link",
    "money_record_genesis",
    "record_root",
    "record_root_v3",
    "seal",
    "verify_day",
    "verify_day_record",
    "verify_hand",
    "void_content",
]
