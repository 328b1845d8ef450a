"""Plain words for the monitor's findings: what was seen, why it is unlikely by chance, and what
the floor should do. Pure: the names come in a ``Labels``-like object."""

from __future__ import annotations

from typing import Any, Protocol

from .stats import Finding

CATEGORY_WORDS = {
    "prial": "prials",
    "running_flush": "running flushes",
    "run": "runs",
    "flush": "flushes",
    "pair": "pairs",
    "high_card": "high cards",
}

MISTAKE_WORDS = {
    "voids": (
        "voided actions",
        "an action this dealer entered was voided (by a supervisor, or taken back at the table)",
    ),
    "refusals": ("refused entries", "the tablet refused what this dealer entered"),
    "misdeals": ("misdeals", "a misdeal was declared on this dealer's hand"),
}


class Names(Protocol):
    def of(self, kind: str, key: Any) -> str: ...


def chance(p: float) -> str:
    """A p-value as words: 'about 1 in 3,400', 'less than 1 in a billion'."""
    if p <= 0 or p < 1e-9:
        return "less than 1 in a billion"
    odds = 1 / p
    if odds >= 1e6:
        return f"about 1 in {odds / 1e6:,.0f} million"
    return f"about 1 in {odds:,.0f}"


def subject_of(f: Finding, names: Names) -> tuple[str, dict[str, Any]]:
    """The subject in words, and its ids."""
    kind = f.subject[0]
    if kind == "pair":
        a, b = f.subject[1], f.subject[2]
        return (
            f"{names.of('player', a)} and {names.of('player', b)}",
            {"kind": "pair", "players": [a, b]},
        )
    key: dict[str, Any] = {"kind": kind, "id": f.subject[1]}
    label = names.of(kind, f.subject[1])
    if f.check == "dealers":
        key["mistake"] = f.numbers["kind"]
        label = f"{label}: {MISTAKE_WORDS.get(f.numbers['kind'], (f.numbers['kind'],))[0]}"
    return label, key


def _classes(numbers: dict[str, Any]) -> str:
    parts = []
    for cls in numbers["classes"]:
        words = " or ".join(CATEGORY_WORDS[c] for c in cls["categories"])
        parts.append(f"{cls['observed']} {words} (the odds give {cls['expected']:g})")
    return "; ".join(parts)


def explain(f: Finding, names: Names) -> tuple[str, str]:
    """(what was seen, what to do) for a finding."""
    n = f.numbers
    odds = chance(f.p_value)
    if f.check == "cards":
        where = names.of(f.subject[0], f.subject[1])
        seen = (
            f"At {where}, {n['hands']} hands were shown at showdowns by players who had not "
            f"looked at them: {_classes(n)}. A well-shuffled pack gives a spread this far from the "
            f"odds of the 22,100 three-card hands {odds} (Pearson's test, allowing for hands of "
            f"one table varying {n.get('dispersion', 1.0):g} times more than independent ones; "
            f"p = {f.p_value:.2g})."
        )
        if n.get("left_out_tables"):
            seen += " Tables already flagged are left out of this count."
        todo = (
            "Check the pack and how it is shuffled and dealt here: a pack that is not shuffled "
            "when the tablet says so, dealt from the bottom, or cards entered wrongly. Open the "
            "hands below (the categories that came up too often first) and compare them with "
            "the cards on the table."
        )
        return seen, todo
    if f.check == "folds":
        player, bettor = names.of("player", f.subject[1]), names.of("player", f.subject[2])
        rate = n["folds"] / n["chances"] if n["chances"] else 0.0
        seen = (
            f"{player} folded the first time they faced {bettor}'s bet in {n['folds']} of "
            f"{n['chances']} hands ({rate:.0%}). In the same situations (blind or not, the stake, "
            f"how many were left) {player} folds to other players' bets "
            f"{_pct(n['player_rate_elsewhere'])} of the time (about {n['expected_from_player']:g} "
            f"folds expected) and other players fold to {bettor}'s bets "
            f"{_pct(n['others_rate_to_bettor'])} of the time (about "
            f"{n['expected_from_bettor']:g} expected). Both by chance: {odds}."
        )
        todo = (
            f"Soft play is a sign of collusion. Watch {player} and {bettor} when they sit at "
            "the same table, look at the hands below (what each held when the other bet), and "
            "consider seating them apart. A flag is a reason to look, not proof."
        )
        return seen, todo
    if f.check == "flows":
        giver, taker = names.of("player", f.subject[1]), names.of("player", f.subject[2])
        seen = (
            f"In {n['exchanges']} hands money passed between {giver} and {taker} "
            f"({n['money']:,} in all): {giver} lost {n['net']:,} net to {taker}. From what each "
            f"wins against everybody else ({giver} takes {_pct(n['giver_share_elsewhere'])} of "
            f"the money in their exchanges, {taker} {_pct(n['taker_share_elsewhere'])}), about "
            f"{n['expected']:,} was expected. By chance: {odds} at most (Hoeffding's bound)."
        )
        todo = (
            f"Money flowing one way between two players is the sign of chip dumping. Look at the "
            f"hands below, largest first: did {giver} put money in and give up to {taker} "
            "without a reason the cards explain? Check whether the two know each other."
        )
        return seen, todo
    words, meaning = MISTAKE_WORDS.get(n["kind"], (n["kind"], "a mistake"))
    dealer = names.of("dealer", f.subject[1])
    seen = (
        f"{dealer} has {n['count']} {words} in {n['hands']:,} hands ({n['per_100']:.1f} per 100); "
        f"the other dealers have {n['others_count']} in {n['others_hands']:,} "
        f"({n['others_per_100']:.1f} per 100), so about {n['expected']:g} were expected. If every "
        f"dealer made them at the same rate, this many would fall to {dealer} {odds}."
    )
    todo = (
        f"Each of these means {meaning}. Watch {dealer} at the table, go through the hands "
        "below with them, and consider more training or another task."
    )
    return seen, todo


def _pct(rate: float | None) -> str:
    return "—" if rate is None else f"{rate:.0%}"
