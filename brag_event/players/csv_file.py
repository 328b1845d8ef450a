"""Reading a file of players as an organiser's spreadsheet writes it: the text's encoding, the
separator, which column is the name and which the starting money, and every row with the line
it starts on and, when it cannot be registered, why. Nothing here touches the database
(``players.imports`` checks the rows against the event's players and registers them).

Hand-written on the standard library's ``csv`` reader, because the libraries looked at do not
do the part that matters here:

- **tablib** (and **django-import-export**, built on it) reads CSV with one fixed separator,
  drops empty rows — so a row's line in the file is lost — and neither detects an encoding;
  django-import-export's preview is a real import rolled back, row by row through the model's
  ``save()``, which is neither the ledger's posting nor fast.
- **charset-normalizer** (tried on Excel's cp1252 output) reads short Western names as
  Central European: "Núñez" came back "Núńez", "Lefèvre" "Lefčvre". An organiser's file is
  UTF-8 (with or without Excel's byte-order mark), UTF-16 with its mark (Excel's "Unicode
  text"), or Windows' Western code page; trying them in that order is never wrong for those.
- **csv.Sniffer** guesses the separator from the whole sample's regularity and guesses wrong
  when names hold commas; the header line (column names never hold a separator) says it."""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass, field

from brag_event.engine import MONEY_MAX

from .names import (
    GROUP_MAX,
    GROUP_TOO_LONG,
    NAME_MAX,
    NAME_TOO_LONG,
    name_key,
    player_group_clean,
    player_name_clean,
)

MAX_ROWS = 2000  # players per file
SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}


def _header_key(text: str) -> str:
    """A column name as compared: case, spaces, underscores and punctuation left out."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in text if c.isalnum())


NAME_HEADERS = {
    "name",
    "names",
    "player",
    "players",
    "playername",
    "playersname",
    "fullname",
    "participant",
    "entrant",
    # What European organisers' spreadsheets call it.
    "nom",
    "nomdujoueur",
    "joueur",
    "nombre",
    "jugador",
    "naam",
    "speler",
    "spieler",
    "nome",
    "giocatore",
}
FIRST_HEADERS = {"firstname", "forename", "givenname", "first"}
LAST_HEADERS = {"lastname", "surname", "familyname", "last"}
MONEY_HEADERS = {
    "startingmoney",
    "startmoney",
    "money",
    "mb",
    "starting",
    "start",
    "startingstack",
    "stack",
    "chips",
    "startingchips",
    "balance",
    "startingbalance",
    "amount",
    "bankroll",
}


GROUP_HEADERS = {
    "club",
    "clubname",
    "group",
    "groupname",
    "team",
    "household",
    "family",
    "association",
    "clubgroup",
    "society",
    "league",
    "cluborgroup",
    # European organisers' spreadsheets.
    "verein",
    "gruppe",
    "groupe",
    "equipe",
    "grupo",
    "equipo",
    "vereniging",
    "groep",
    "circolo",
    "gruppo",
}
# A club or group column fills both the entry's group and, for someone new, the person's club
# (players.imports; docs/people.md).
NUMBER_HEADERS = {
    "number",
    "no",
    "nr",
    "membershipnumber",
    "membershipno",
    "membernumber",
    "memberno",
    "member",
    "membership",
    "playernumber",
}
NUMBER_MAX = 99_999_999


@dataclass(frozen=True)
class Row:
    """A row of the file: the line it starts on, the name (clean) and the money as read, and
    why it cannot be registered ("" when it can; ``players.imports`` adds the event's own
    reasons). ``note``: what was left out of a row that is kept. ``group``: the player's club or
    group, cleaned ("" for none, or when the file has no such column)."""

    line: int
    name: str
    money: int | None
    refused: str = ""
    note: str = ""
    group: str = ""
    number: int | None = None  # the membership number, when the file has that column


@dataclass
class File:
    encoding: str  # in words: "UTF-8", "UTF-8 with a byte-order mark", ...
    separator: str  # "comma", "semicolon" or "tab"
    columns: list[dict[str, str]] = field(default_factory=list)  # {"header", "read_as"}
    has_money: bool = False
    rows: list[Row] = field(default_factory=list)
    empty_lines: int = 0


class FileRefused(Exception):
    """The file as a whole cannot be read (the message says why, in an organiser's words)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def text_of(data: bytes) -> tuple[str, str]:
    """The file's text and its encoding in words (see the module's docstring for the order)."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "UTF-8 with a byte-order mark"
        except UnicodeDecodeError:
            pass
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            pass
    else:
        try:
            return data.decode("utf-8"), "UTF-8"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("cp1252"), "Windows Western (cp1252)"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "Latin-1"


def separator_of(header: str) -> str:
    """The separator the header line uses most, outside quotes (a comma if it uses none: one
    column)."""
    outside = re.sub(r'"[^"]*"', "", header)
    counts = {sep: outside.count(sep) for sep in SEPARATORS}
    best = max(counts.values())
    if best == 0:
        return ","
    return next(sep for sep in (",", ";", "\t") if counts[sep] == best)


# A whole amount as spreadsheets write it: 1000, 1,000, 1.000, 1 000, 1'000, optionally with
# zero cents (1000.00, 1.000,00). Any other form is refused, never guessed.
_GROUPED = re.compile(r"\d{1,3}(?P<sep>[,. '\u00a0\u202f])\d{3}(?:(?P=sep)\d{3})*")
_ZERO_CENTS = re.compile(r"(?P<whole>.+?)[.,]00")


def money_of(raw: str, currency: str) -> tuple[int | None, str]:
    """(amount, "") or (None, why it is refused) for a money cell; ``raw`` is not empty."""
    text = raw.strip()
    shown = text if len(text) <= 30 else text[:29] + "…"
    for label in (currency.strip().casefold(), "mb"):
        if label and text.casefold().endswith(label):
            text = text[: -len(label)].strip()
    if text.startswith(("-", "−", "(")):
        return None, f"the starting money “{shown}” is negative"
    text = text.lstrip("+").strip()
    cents = _ZERO_CENTS.fullmatch(text)
    if cents and not _GROUPED.fullmatch(text):
        text = cents["whole"]
    if _GROUPED.fullmatch(text):
        text = re.sub(r"\D", "", text)
    if not (text.isascii() and text.isdigit()):
        return None, f"the starting money “{shown}” is not a whole number"
    if len(text.lstrip("0")) > len(str(MONEY_MAX)) or int(text) > MONEY_MAX:
        return None, f"the starting money “{shown}” is more than {MONEY_MAX:,}"
    return int(text), ""


class _Lines:
    """The file's records, each with the line it starts on: a record that opens a quote and
    never closes it, or whose name or money runs over several lines (a stray quote closed by
    another, lines later), is refused at the line it starts on, and reading goes on from the
    next line — a stray quote spoils its own row, not the rest of the file."""

    def __init__(self, text: str, separator: str) -> None:
        self.lines = text.splitlines(keepends=True)
        self.separator = separator

    def records(
        self, *, single_line: set[int], first_line: int
    ) -> list[tuple[int, list[str] | None, str]]:
        """(line, fields, problem): ``fields`` is ``None`` when the record is refused.
        ``single_line``: the columns whose values cannot span lines (name and money);
        ``first_line``: the file's line number of the text's first line."""
        out: list[tuple[int, list[str] | None, str]] = []
        at = 0  # index of the next line to read
        while at < len(self.lines):
            reader = csv.reader(self.lines[at:], delimiter=self.separator, strict=True)
            read = 0  # lines read by this reader
            restart = None
            try:
                for fields in reader:
                    start = at + read + first_line
                    end = at + reader.line_num + first_line - 1
                    read = reader.line_num
                    spans = any(
                        "\n" in v or "\r" in v for i, v in enumerate(fields) if i in single_line
                    )
                    if end > start and spans:
                        out.append((start, None, _spans(start, end)))
                        restart = start - first_line + 1  # the lines after it are rows
                        break
                    out.append((start, fields, ""))
            except csv.Error as err:
                start = at + read + first_line
                out.append((start, None, _quote_problem(str(err))))
                restart = start - first_line + 1
            if restart is None:
                break
            at = restart
        return out


def _spans(start: int, end: int) -> str:
    return (
        f'a quote (") opened on line {start} is only closed on line {end}, so the lines '
        "between were read as one name: check the quotes on this line"
    )


def _quote_problem(err: str) -> str:
    if "end of data" in err or "EOF" in err:
        return 'a quote (") opened on this line is never closed'
    if "NUL" in err:
        return "this line holds a character that is not text (NUL)"
    return 'a quote (") on this line is not where a spreadsheet puts one: check this line'


@dataclass(frozen=True)
class _Layout:
    """Where the columns are, from the header line."""

    name_at: int | None
    first_at: int | None
    last_at: int | None
    money_at: list[int]
    group_at: int | None
    number_at: int | None
    width: int
    currency: str


def _layout(header_fields: list[str], currency: str) -> tuple[_Layout, list[dict[str, str]]]:
    """The header's columns (raises ``FileRefused`` without a column of names, or with two of
    money)."""
    columns, name_at, first_at, last_at, money_at, group_at = _columns(header_fields, currency)
    number_at = next(
        (i for i, c in enumerate(columns) if c["read_as"] == "membership number"), None
    )
    if name_at is None and first_at is None:
        named = ", ".join(f"“{h.strip()[:40]}”" for h in header_fields if h.strip())
        raise FileRefused(
            "invalid_csv",
            "The first line must name the columns, with one called “Name” (and “Starting "
            "money”, or leave it out to give everyone the event's starting money)"
            + (f"; it names {named[:300]}." if named else "."),
        )
    if len(money_at) > 1:
        both = " and ".join(f"“{header_fields[i].strip()}”" for i in money_at)
        raise FileRefused(
            "invalid_csv", f"Two columns could be the starting money: {both}. Keep one."
        )
    layout = _Layout(
        name_at, first_at, last_at, money_at, group_at, number_at, len(header_fields), currency
    )
    return layout, columns


def _money_cell(fields: list[str], at: _Layout) -> tuple[int | None, str]:
    if not at.money_at:
        return None, ""
    raw = _cell(fields, at.money_at[0]).strip()
    if not raw:
        return None, "no starting money on this row"
    return money_of(raw, at.currency)


def _number_cell(fields: list[str], at: _Layout, why: str) -> tuple[int | None, str]:
    raw_number = _cell(fields, at.number_at).strip()
    if not raw_number or why:
        return None, why
    if raw_number.isascii() and raw_number.isdigit() and 1 <= int(raw_number) <= NUMBER_MAX:
        return int(raw_number), why
    return None, f"the membership number “{raw_number[:20]}” is not a whole number"


def _row(fields: list[str], line: int, at: _Layout, seen: dict[str, int]) -> Row:
    """One row of players read (``seen``: the first line of each name or number so far)."""
    if at.name_at is not None:
        raw_name = _cell(fields, at.name_at)
    else:
        raw_name = f"{_cell(fields, at.first_at)} {_cell(fields, at.last_at)}"
    name = player_name_clean(raw_name)
    extra = [v for v in fields[at.width :] if v.strip()]
    note = f"{len(extra)} value(s) past the last column left out" if extra else ""
    money, why = _money_cell(fields, at)
    group = player_group_clean(_cell(fields, at.group_at))
    number, why = _number_cell(fields, at, why)
    if not name:
        why = "no name on this row" + (f", and {why}" if why else "")
    elif len(name) > NAME_MAX:
        why = NAME_TOO_LONG.rstrip(".").lower()
    elif len(group) > GROUP_MAX:
        why = GROUP_TOO_LONG.rstrip(".").lower()
    if not why:
        # Two rows of one name are one person twice, unless their numbers say otherwise.
        key = name_key(name) if number is None else f"#{number}"
        if key in seen:
            what = "name" if number is None else "membership number"
            why = f"the same {what} as line {seen[key]}"
        else:
            seen[key] = line
    return Row(
        line=line,
        name=name[:200],
        money=money,
        refused=why,
        note=note,
        group=group[:GROUP_MAX],
        number=number,
    )


def file_read(data: bytes, *, currency: str = "MB") -> File:
    """Read a file of players (raises ``FileRefused`` for a file that cannot be read as a
    whole: no column of names, more than ``MAX_ROWS`` rows, nothing after the header)."""
    text, encoding = text_of(data)
    if "\x00" in text[:2000] and encoding != "UTF-16":
        raise FileRefused(
            "invalid_csv", "This is not a text file: save the spreadsheet as CSV first."
        )
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise FileRefused("invalid_csv", "The file is empty.")
    separator = separator_of(lines[first])
    header_fields = next(csv.reader([lines[first]], delimiter=separator))
    at, columns = _layout(header_fields, currency)
    read = File(
        encoding=encoding,
        separator=SEPARATORS[separator],
        columns=columns,
        has_money=bool(at.money_at),
    )
    name_cols = {i for i in (at.name_at, at.first_at, at.last_at) if i is not None}
    body = _Lines("".join(text.splitlines(keepends=True)[first + 1 :]), separator)
    seen: dict[str, int] = {}
    records = body.records(single_line=name_cols | set(at.money_at), first_line=first + 2)
    for line, fields, problem in records:
        if fields is None:
            shown = player_name_clean(lines[line - 1])[:60]  # the line as written
            read.rows.append(Row(line=line, name=shown, money=None, refused=problem))
            continue
        if not any(v.strip() for v in fields):
            read.empty_lines += 1
            continue
        read.rows.append(_row(fields, line, at, seen))
        if len(read.rows) > MAX_ROWS:
            raise FileRefused(
                "too_many_rows",
                f"The file has more than {MAX_ROWS:,} players: split it into files of at most "
                f"{MAX_ROWS:,} rows.",
            )
    if not read.rows:
        raise FileRefused(
            "invalid_csv", "Nothing to import: there is no row after the first (the column names)."
        )
    return read


def _cell(fields: list[str], index: int | None) -> str:
    return fields[index] if index is not None and index < len(fields) else ""


def _columns(
    header: list[str], currency: str
) -> tuple[list[dict[str, str]], int | None, int | None, int | None, list[int], int | None]:
    """What each column is read as, and where the name, first name, last name, money and club
    or group are."""
    money_names = MONEY_HEADERS | {_header_key(currency)} - {""}
    name_at = first_at = last_at = group_at = None
    money_at: list[int] = []
    columns: list[dict[str, str]] = []
    for i, raw in enumerate(header):
        key = _header_key(raw)
        what = "left out"
        if key in NAME_HEADERS and name_at is None:
            name_at, what = i, "name"
        elif key in FIRST_HEADERS and first_at is None:
            first_at, what = i, "first name"
        elif key in LAST_HEADERS and last_at is None:
            last_at, what = i, "last name"
        elif key in money_names:
            money_at.append(i)
            what = "starting money"
        elif key in GROUP_HEADERS and group_at is None:
            group_at, what = i, "club or group"
        elif key in NUMBER_HEADERS and "membership number" not in [c["read_as"] for c in columns]:
            what = "membership number"
        columns.append({"header": raw.strip()[:60] or f"column {i + 1}", "read_as": what})
    if name_at is not None:  # a name column wins over first and last names
        for other in (first_at, last_at):
            if other is not None:
                columns[other]["read_as"] = "left out"
        first_at = last_at = None
    elif (first_at is None) != (last_at is None):
        # One of the two alone is the name.
        name_at = first_at if first_at is not None else last_at
        columns[name_at]["read_as"] = "name"  # type: ignore[index]
        first_at = last_at = None
    return columns, name_at, first_at, last_at, money_at, group_at
