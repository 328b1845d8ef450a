"""The facts the monitor reads from one hand, through the engine alone (no database)."""

from __future__ import annotations

from brag_event.engine import FLASH_DAY_1, Action, HandState, SeatSetup
from brag_event.integrity.facts import Exchange, FoldChance, hand_facts


def start() -> HandState:
    seats = [SeatSetup(n, name, 100) for n, name in ((1, "Andy"), (2, "Bill"), (3, "Chris"))]
    return HandState(FLASH_DAY_1, 3, seats)


ACTIONS = [
    Action("look", 1),
    Action("bet", 1, 5),  # Andy opens: no stake yet, so no chance to fold to anyone
    Action("bet", 2, 3),  # Bill, blind, faces Andy's 5: the stake is 6
    Action("look", 3),
    Action("fold", 3),  # Chris folds to Bill's bet
    Action("bet", 1, 6),  # Andy stays against Bill; two are left
    Action("see", 2, 6),  # Bill (blind) sees: his second turn against Andy does not count again
    Action("show", 1, cards="3s 3d 3c"),
    Action("show", 2, cards="Ah 2h 3h"),
]
PLAYERS = {1: "andy", 2: "bill", 3: "chris"}


def facts():  # type: ignore[no-untyped-def]
    found = hand_facts(
        start(), ACTIONS, hand=7, players=PLAYERS, table="t1", dealer="d1", day="day1"
    )
    assert found is not None
    return found


def test_the_first_bet_each_player_faces_from_each_other_player_is_one_chance() -> None:
    chances = {(c.player, c.bettor): c for c in facts().chances}
    assert set(chances) == {("bill", "andy"), ("chris", "bill"), ("andy", "bill")}
    assert chances["chris", "bill"] == FoldChance(
        7, "chris", "bill", folded=True, blind=False, stake=0.3, heads_up=False, stayed=False
    )
    assert chances["bill", "andy"] == FoldChance(
        7, "bill", "andy", folded=False, blind=True, stake=0.25, heads_up=False, stayed=False
    )
    assert chances["andy", "bill"] == FoldChance(
        7, "andy", "bill", folded=False, blind=False, stake=0.3, heads_up=True, stayed=False
    )


def test_shown_hands_say_whether_their_owner_ever_looked() -> None:
    shown = {s.player: s for s in facts().shown}
    assert shown["andy"].category == "prial" and not shown["andy"].blind
    assert shown["bill"].category == "running_flush" and shown["bill"].blind
    assert sorted(shown["bill"].others) == sorted(shown["andy"].cards)


def test_each_loser_pays_the_winners_what_they_lost() -> None:
    # Andy paid 16 and won the pot of 35; Bill lost 14, Chris his ante.
    assert sorted(facts().exchanges, key=lambda x: x.loser) == [
        Exchange(7, "bill", "andy", 14.0),
        Exchange(7, "chris", "andy", 5.0),
    ]


def test_a_hand_that_has_not_settled_has_no_facts() -> None:
    assert (
        hand_facts(start(), ACTIONS[:5], hand=1, players=PLAYERS, table=1, dealer=1, day=1) is None
    )
