"""Players' names: one spelling on every page, and one player per name in an event.

A name is stored normalised — Unicode NFKC (full-width letters, ligatures and no-break spaces
become their plain forms), invisible characters removed (zero-width spaces and joiners,
direction marks, soft hyphens, fillers…), runs of white space made one space — and compared
case-insensitively through its key, on which the database keeps an event's players unique. So
"HARVEY PRICE" or "Harvey\u200bPrice" is the registered Harvey Price, not a second player who
looks the same. (Hand-written: the standard library's ``unicodedata`` does the Unicode work; no
package does this combination.)"""

from __future__ import annotations

import unicodedata

NAME_MAX = 80
KEY_MAX = 3 * NAME_MAX  # case folding can lengthen a name ("ß" → "ss")

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
    text = unicodedata.normalize("NFKC", str(name))
    text = "".join(c for c in text if _shows(c))
    # Removing a character can bring a letter and its accent together: compose them again.
    text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())


def player_name_key(name: str) -> str:
    """What two names that look the same share: the clean name, case-folded."""
    return unicodedata.normalize("NFKC", player_name_clean(name).casefold())


GROUP_MAX = 60


def player_group_clean(group: str) -> str:
    """A club or group as stored and shown: cleaned like a name."""
    return player_name_clean(group)


def player_group_key(group: str) -> str:
    """What two spellings of one club share ("Rovers  CC" and "rovers cc" are one club)."""
    return player_name_key(group)
