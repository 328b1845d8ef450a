"""What the monitor reads from the database: stored hands replayed into the same facts the
simulation gives, and each dealer's hands and mistakes."""

from __future__ import annotations

import pytest

from brag_event.integrity.facts import Exchange, FoldChance
from brag_event.integrity.models import RefusedEntry
from brag_event.integrity.selectors import event_data, event_fingerprint, event_labels
from brag_event.integrity.stats import DealerEvent
from tests.factories import assert_audit_ok

from .conftest import Floor

pytestmark = pytest.mark.django_db


def test_a_stored_hand_gives_its_shown_hands_fold_chances_and_money(floor: Floor) -> None:
    hand = floor.showdown_hand()
    p1, p2, p3 = (p.pk for p in floor.world.players)
    data = event_data(floor.world.event)
    (facts,) = data.hands
    assert (facts.hand, facts.table, facts.day) == (
        hand.pk,
        floor.world.table.pk,
        floor.world.day.pk,
    )
    assert facts.dealer == floor.users["dealer1"].pk
    shown = {s.player: (s.category, s.blind) for s in facts.shown}
    assert shown == {p2: ("pair", False), p3: ("running_flush", True)}
    chances = {(c.player, c.bettor): c for c in facts.chances}
    assert chances[p1, p3] == FoldChance(
        hand.pk, p1, p3, folded=True, blind=True, stake=0.5, heads_up=False, stayed=False
    )
    assert not chances[p2, p3].folded and chances[p2, p3].heads_up
    # Seat 2 paid 20 into the pot and lost it to seat 3; seat 1 lost the ante.
    assert sorted(facts.exchanges, key=lambda x: x.amount) == [
        Exchange(hand.pk, p1, p3, 5.0),
        Exchange(hand.pk, p2, p3, 25.0),
    ]
    assert_audit_ok(floor.world.event)


def test_hands_in_play_are_not_read_and_voided_actions_are_left_out(floor: Floor) -> None:
    first = floor.folded_hand(by="dealer1")
    second = floor.start(by="dealer2")
    floor.act(second, by="dealer2", seat=3, action="look")
    data = event_data(floor.world.event)
    assert [f.hand for f in data.hands] == [first.pk]  # the hand in play is not read
    assert data.dealer_hands == {floor.users["dealer1"].pk: 1, floor.users["dealer2"].pk: 1}
    # A supervisor voids dealer2's look: the void counts against dealer2.
    floor.void(second)
    data = event_data(floor.world.event)
    assert data.dealer_events == [DealerEvent(floor.users["dealer2"].pk, "voids", second.pk)]


def test_refused_entries_count_against_who_sent_them_when_the_entry_was_wrong(
    floor: Floor,
) -> None:
    hand = floor.folded_hand()
    table = floor.world.table
    dealer = floor.users["dealer2"]
    for status, code in ((400, "bet_below_stake"), (409, "stale_sequence")):
        RefusedEntry.objects.create(
            table=table, hand=hand, seq=3, action="bet", code=code, status=status, user=dealer
        )
    before = event_fingerprint(floor.world.event)
    data = event_data(floor.world.event)
    assert data.dealer_events == [DealerEvent(dealer.pk, "refusals", hand.pk)]
    RefusedEntry.objects.create(table=table, hand=hand, code="x", status=400, user=dealer)
    assert event_fingerprint(floor.world.event) != before


def test_labels_name_players_tables_days_and_dealers(floor: Floor) -> None:
    floor.folded_hand(by="dealer2")
    names = event_labels(floor.world.event)
    w = floor.world
    assert names.of("player", w.players[0].pk) == "Andy"
    assert names.of("table", w.table.pk) == "table 1 on day 1"
    assert names.of("day", w.day.pk) == "day 1"
    assert names.of("dealer", floor.users["dealer2"].pk) == "dealer2"
