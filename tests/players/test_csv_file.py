"""Reading a file of players without the database: any list of names and amounts, written as a
spreadsheet would write it (any of the three separators, quoted where needed, any of the
encodings), reads back exactly; money cells in every form a spreadsheet writes; and a stray
quote spoils its own row only."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brag_event.engine import MONEY_MAX
from brag_event.players.csv_file import file_read, money_of
from brag_event.players.names import NAME_MAX, player_name_clean, player_name_key

# Names as people write them: letters of Western and other scripts, spaces, hyphens,
# apostrophes, and the separators and quotes a spreadsheet must quote.
NAME_CHARS = st.sampled_from(list("abcdefghijklmnopqrstuvwxyzÀÉÎÕÜßçñøАБЖ'-. ,;\t\""))


@st.composite
def players(draw: st.DrawFn) -> list[tuple[str, int]]:
    names = draw(
        st.lists(
            st.text(NAME_CHARS, min_size=1, max_size=30).map(player_name_clean).filter(bool),
            min_size=1,
            max_size=30,
            unique_by=player_name_key,
        )
    )
    money = draw(st.lists(st.integers(0, MONEY_MAX), min_size=len(names), max_size=len(names)))
    return list(zip(names, money, strict=True))


@given(
    rows=players(),
    separator=st.sampled_from([",", ";", "\t"]),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]),
    header=st.sampled_from([("Name", "Starting Money"), ("player", "MB"), ("NAME", "money")]),
    newline=st.sampled_from(["\n", "\r\n"]),
)
def test_what_a_spreadsheet_writes_reads_back_exactly(
    rows: list[tuple[str, int]],
    separator: str,
    encoding: str,
    header: tuple[str, str],
    newline: str,
) -> None:
    if encoding == "cp1252":
        rows = [(n, m) for n, m in rows if n.encode("cp1252", "ignore").decode("cp1252") == n]
        if not rows:
            return
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, lineterminator=newline)
    writer.writerow(header)
    writer.writerows(rows)
    read = file_read(out.getvalue().encode(encoding))
    assert read.has_money
    assert [(r.line, r.name, r.money, r.refused) for r in read.rows] == [
        (line, name, money, "") for line, (name, money) in enumerate(rows, start=2)
    ]


@pytest.mark.parametrize(
    ("cell", "amount"),
    [
        ("1000", 1000),
        ("1,000", 1000),
        ("1.000", 1000),
        ("1 000", 1000),
        ("1\u00a0000", 1000),
        ("1000.00", 1000),
        ("1.000,00", 1000),
        ("1,000.00", 1000),
        ("+70", 70),
        ("1000 MB", 1000),
        ("0", 0),
        (f"{MONEY_MAX:,}", MONEY_MAX),
    ],
)
def test_money_in_the_forms_spreadsheets_write(cell: str, amount: int) -> None:
    assert money_of(cell, "MB") == (amount, "")


@pytest.mark.parametrize(
    ("cell", "why"),
    [
        ("abc", "is not a whole number"),
        ("12.50", "is not a whole number"),
        ("1.5", "is not a whole number"),
        ("1,00,000", "is not a whole number"),
        ("²", "is not a whole number"),
        ("-50", "is negative"),
        ("(50)", "is negative"),
        (str(MONEY_MAX + 1), f"is more than {MONEY_MAX:,}"),
        ("9" * 400, f"is more than {MONEY_MAX:,}"),
    ],
)
def test_money_that_is_not_a_whole_amount_is_refused_never_guessed(cell: str, why: str) -> None:
    amount, reason = money_of(cell, "MB")
    assert amount is None and why in reason


def test_a_name_longer_than_the_limit_is_refused_on_its_row() -> None:
    read = file_read(f"name\n{'x' * (NAME_MAX + 1)}\nAnn\n".encode())
    assert [r.refused for r in read.rows] == [
        f"a name is at most {NAME_MAX} characters",
        "",
    ]


@pytest.mark.parametrize("header", ["Club", "group", "Household", "Verein", "Club or group"])
def test_a_club_or_group_column_is_read(header: str) -> None:
    read = file_read(f"Name,{header}\nAnn,  Rovers\u00a0CC \nBob,\n".encode())
    assert [c["read_as"] for c in read.columns] == ["name", "club or group"]
    assert [(r.name, r.group) for r in read.rows] == [("Ann", "Rovers CC"), ("Bob", "")]
