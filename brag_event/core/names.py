"""Names that identify — a player's, a person's, a staff member's user name, an event's — as
they are stored and compared (docs/people.md, "Names that look the same"): the clean form
(``player_name_clean``) and what two names that look the same share (``name_key``). Here, below
every app, so that the players, the staff accounts and the events check names one way.
(Hand-written: the standard library's ``unicodedata`` does the Unicode work and ICU's spoof
checker the confusables; no package does this combination.)"""

from __future__ import annotations

import functools
import unicodedata

import icu

# Three times a name's 80 characters: case folding and the skeleton can lengthen a name ("ß" →
# "ss", "m" → "rn").
KEY_MAX = 240

# Characters that show nothing but are not white space or in a "C" category: combining
# grapheme joiner, Hangul and half-width fillers, Mongolian vowel separator, braille blank,
# variation selectors.
_INVISIBLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x2800, 0x3164, 0xFFA0}
_INVISIBLE_RANGES = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def _shows(char: str) -> bool:
    if char.isspace():
        return True  # white space is collapsed, not removed: "Ann\u00a0Lee" is "Ann Lee"
    code = ord(char)
    if code in _INVISIBLE or any(lo <= code <= hi for lo, hi in _INVISIBLE_RANGES):
        return False
    # Cc control, Cf format (zero-width, direction marks, soft hyphen, tags), Co private use,
    # Cs surrogates, Cn unassigned.
    return not unicodedata.category(char).startswith("C")


def player_name_clean(name: str) -> str:
    """The name as it is stored and shown."""
    text = str(name)
    if text.isascii() and text.isprintable() and "  " not in text and text == text.strip():
        # Clean already: NFKC leaves printable ASCII as it is, which holds no invisible
        # character and no white space but single spaces (a file of 30,000 names: 2 s less).
        return text
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if _shows(c))
    # Removing a character can bring a letter and its accent together: compose them again.
    text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())


# ICU's spoof checker: the skeleton of UTS #39 from Unicode's own confusables table, kept up
# to date with each ICU release (confusable_homoglyphs only answers "is this confusable?",
# not "which name does it look like?", so it cannot give a key to compare and index). Its
# getSkeleton is a const call, safe to share between threads.
_SPOOF = icu.SpoofChecker()


def _unmarked(text: str) -> str:
    """``text`` decomposed, without its combining marks ("é" → "e", "é" → "e")."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


@functools.lru_cache(maxsize=4096)
def _letter_key(char: str) -> str:
    """One character's part of a key: its skeleton, case-folded. The skeleton maps by case
    ("I" looks like "l", Cyrillic "Н" like "H", but "н" like small-capital "ʜ"), and names are
    compared whatever their case: the skeleton of the case-folded letter is taken, unless only
    the letter as written maps to plain ASCII ("Н" → "h")."""
    folded = _unmarked(str(_SPOOF.getSkeleton(0, char.casefold()))).casefold()
    if folded.isascii():
        return folded
    written = _unmarked(str(_SPOOF.getSkeleton(0, char))).casefold()
    return written if written.isascii() else folded


def name_key(name: str) -> str:
    """What two names that look the same share — every comparison of names goes through it:
    the clean name (NFKC, invisible characters gone, white space collapsed) without combining
    marks, each letter mapped to Unicode's confusable skeleton (UTS #39: Cyrillic "а" is Latin
    "a", "0" is "O"), case-folded. At most ``KEY_MAX`` characters."""
    text = _unmarked(player_name_clean(name))
    text = "".join(_letter_key(c) for c in text)
    text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())[:KEY_MAX]
