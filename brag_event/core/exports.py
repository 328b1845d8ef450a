"""CSV exports that a spreadsheet opens as data, never as formulas.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula to
Excel, LibreOffice and Google Sheets: a player named ``=HYPERLINK("http://…")`` would become a
live link in the organiser's spreadsheet. OWASP's rule (CSV injection): such a cell gets a
leading ``'``, which spreadsheets show as text. Numbers — a negative change of money included —
are left as they are. (Hand-written: defusedcsv, the package for this, leaves cells starting
with a tab or a carriage return alone and rewrites every ``|`` in the ones it escapes.)"""

from __future__ import annotations

import re
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def spreadsheet_safe(value: Any) -> Any:
    """The cell as it should be written: numbers as they are, text that would start a formula
    with a ``'`` in front."""
    if value is None or isinstance(value, bool | int | float):
        return value
    text = str(value)
    if text.startswith(FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text
