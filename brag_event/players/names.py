"""Players' names: one spelling on every page, and one player per name in an event unless the
organiser confirms two different people.

A name is stored normalised — Unicode NFKC (full-width letters, ligatures and no-break spaces
become their plain forms), invisible characters removed (zero-width spaces and joiners,
direction marks, soft hyphens, fillers…), runs of white space made one space — and compared
case-insensitively through its key, on which the database keeps an event's players unique. So
"HARVEY PRICE" or "Harvey\u200bPrice" is the registered Harvey Price, not a second player who
looks the same. (Hand-written: the standard library's ``unicodedata`` does the Unicode work; no
package does this combination.)

Names that look the same but are spelled with other letters — "Hаrvey Price" with a Cyrillic
"а", "Harvey Pricé" — share their key too (``name_key``): Unicode's confusable skeleton (UTS #39)
as ICU's spoof checker computes it, with accents and other combining marks dropped."""

from __future__ import annotations

from brag_event.core.names import KEY_MAX, name_key, player_name_clean
from brag_event.core.words import at_most

# The cleaning and the key live in core.names (below every app: staff user names and event
# names are checked with them too).
__all__ = ["KEY_MAX", "name_key", "player_name_clean"]

NAME_MAX = 80
NAME_TOO_LONG = at_most("A name", NAME_MAX)  # the one way this limit is said

# The name migration 0003 imports.
player_name_key = name_key


GROUP_MAX = NAME_MAX  # a person's club (people.Person.club) becomes an entry's group whole
GROUP_TOO_LONG = at_most("A club or group", GROUP_MAX)


def player_group_clean(group: str) -> str:
    """A club or group as stored and shown: cleaned like a name."""
    return player_name_clean(group)


def player_group_key(group: str) -> str:
    """What two spellings of one club share ("Rovers  CC", "rovers cc" and "Rоvers CC" with a
    Cyrillic "о" are one club): compared like names."""
    return name_key(group)
