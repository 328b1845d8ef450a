"""A big event whose ledger is right: the seed of ``bench.standings`` and ``bench.audit``.

``seed_event(name, players, hands)`` makes, on PostgreSQL:

* an event (FLASH), its players registered and seated six to a table, through the services;
* at every table, one **cycle of six hands played through the services** (``hand_start``,
  ``hand_apply_action``): the seat after the dealer looks and bets the minimum, everyone else
  folds, the pot goes to the bettor, who deals next — so every seat wins once a cycle, and after
  a cycle every stack is back where it started;
* then the rest of the hands in bulk SQL, each a copy of the hand of the cycle it repeats: the
  hand row (number moved on), its actions, its pot account, its transfers (pot legs moved to the
  copy's own pot, each naming the copy's own action) and its dealt players;
* the caches that the services keep, from what was written: every seat's stack from the ledger
  (a last partial cycle leaves stacks mid-cycle), every player's ``Standing`` (hands played and
  won) from the hands.

So the whole event passes the ledger audit (``bench.audit`` checks that before timing), with
about seven actions and eight transfers a hand, as the services would have written them.
"""

from __future__ import annotations

import math
import time
from typing import Any

SEATS = 6
CYCLE = SEATS  # hands in a cycle: every seat deals (and wins) once


def _play_cycle(table: Any) -> None:
    """One cycle of hands at ``table`` through the services: whoever acts first looks and bets
    the minimum, everyone after folds."""
    from brag_event.bots import opener_bets
    from brag_event.hands.selectors import hand_state
    from brag_event.hands.services import hand_apply_action, hand_start

    for _ in range(CYCLE):
        hand = hand_start(table=table, by=None)
        while hand.status != hand.Status.SETTLED:
            bot = opener_bets(hand_state(hand), hand.next_seq, table.day.min_bet)
            action = bot.to_dict()
            hand, _row, _state = hand_apply_action(
                hand=hand, action=action, expected_seq=hand.next_seq, by=None
            )


def seed_event(name: str, players: int, hands: int, *, vacuum: bool = True) -> dict[str, Any]:
    """The event and ``hands`` hands (rounded up to whole tables), ledger and caches right;
    then ``VACUUM ANALYZE`` (not inside a transaction: a test passes ``vacuum=False``)."""
    from django.db import connection, transaction

    from brag_event.events.services import day_open, event_create_flash
    from brag_event.hands import chain
    from brag_event.hands.models import Hand, HandAction
    from brag_event.ledger.models import Account, Transfer
    from brag_event.players.models import Standing
    from brag_event.players.services import player_register
    from brag_event.tables.models import Seat, Table
    from brag_event.tables.services import seat_buy_in, table_create

    t = time.perf_counter()
    event = event_create_flash(name=name, by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    n_tables = math.ceil(players / SEATS)
    tables = [table_create(day=day, by=None) for _ in range(n_tables)]
    registered = [
        player_register(
            event=event,
            name=f"Player {i:03d}",
            starting_money=500 + (i * 379) % 1500,  # different money: ranks differ
            by=None,
        )
        for i in range(players)
    ]
    span = day.table_max - day.table_min
    for i, player in enumerate(registered):
        seat_buy_in(
            table=tables[i // SEATS],
            seat_number=i % SEATS + 1,
            player=player,
            amount=day.table_min + (i * 53) % (span + 1),
            by=None,
        )
    per_table = max(CYCLE, math.ceil(hands / n_tables))
    for table in tables:
        _play_cycle(table)
    services_s = time.perf_counter() - t

    t = time.perf_counter()
    hand_t, action_t = Hand._meta.db_table, HandAction._meta.db_table
    dealt_t = Hand.dealt_players.through._meta.db_table
    account_t, transfer_t = Account._meta.db_table, Transfer._meta.db_table
    seat_t, table_t = Seat._meta.db_table, Table._meta.db_table
    standing_t = Standing._meta.db_table
    cycles = math.ceil(per_table / CYCLE) - 1
    with transaction.atomic(), connection.cursor() as cur:
        # The cycle just played at each of the day's tables, and its copies: copy c of hand k
        # is hand k + 6c, 20 s after the one before it.
        cur.execute(
            f"CREATE TEMP TABLE seed_cycle ON COMMIT DROP AS SELECT h.* FROM {hand_t} h "
            f"JOIN {table_t} t ON t.id = h.table_id WHERE t.day_id = %s",
            [day.pk],
        )
        cur.execute(
            f"INSERT INTO {hand_t} (table_id, number, dealer_seat, rules, seats, carried_pot, "
            "carried_seat, shuffle_before, accounts, status, next_seq, result, started_by_id, "
            "started_at, settled_at, chain_head) "
            "SELECT h.table_id, h.number + %s * c, h.dealer_seat, h.rules, h.seats, "
            "h.carried_pot, h.carried_seat, false, h.accounts, h.status, h.next_seq, h.result, "
            "h.started_by_id, h.started_at + make_interval(secs => 120 * c), "
            "h.settled_at + make_interval(secs => 120 * c), '' "
            "FROM seed_cycle h CROSS JOIN generate_series(1, %s) AS c "
            "WHERE h.number + %s * c <= %s ORDER BY c, h.number, h.table_id",
            [CYCLE, cycles, CYCLE, per_table],
        )
        cur.execute(
            "CREATE TEMP TABLE seed_map ON COMMIT DROP AS "
            "SELECT n.id AS new_id, o.id AS old_id FROM seed_cycle o "
            f"JOIN {hand_t} n ON n.table_id = o.table_id "
            "AND n.number > %s AND (n.number - 1) %% %s + 1 = o.number",
            [CYCLE, CYCLE],
        )
        cur.execute("CREATE INDEX ON seed_map (old_id)")
        cur.execute("ANALYZE seed_map")
        cur.execute(
            f"INSERT INTO {action_t} (hand_id, seq, seat, action, amount, hand_choice, cards, "
            "entered_by_id, device, entered_at, hash) "
            "SELECT m.new_id, a.seq, a.seat, a.action, a.amount, a.hand_choice, a.cards, "
            "a.entered_by_id, a.device, a.entered_at, '' "
            f"FROM seed_map m JOIN {action_t} a ON a.hand_id = m.old_id ORDER BY m.new_id, a.seq"
        )
        cur.execute(
            f"INSERT INTO {account_t} (event_id, kind, player_id, seat_id, table_id, hand_id, "
            "pot_index) SELECT a.event_id, a.kind, NULL, NULL, a.table_id, m.new_id, a.pot_index "
            f"FROM seed_map m JOIN {account_t} a ON a.hand_id = m.old_id AND a.kind = 'pot' "
            "ORDER BY m.new_id, a.pot_index"
        )
        # Each copy's account cache names its own pot.
        cur.execute(
            f"UPDATE {hand_t} h SET accounts = h.accounts || jsonb_build_object("
            "'pot:' || a.pot_index, a.id) "
            f"FROM {account_t} a WHERE a.hand_id = h.id AND a.kind = 'pot' AND h.number > %s "
            "AND h.table_id IN (SELECT table_id FROM seed_cycle)",
            [CYCLE],
        )
        cur.execute(
            f"INSERT INTO {transfer_t} (event_id, kind, source_id, target_id, amount, hand_id, "
            "action_id, memo, created_by_id, created_at) "
            "SELECT tr.event_id, tr.kind, COALESCE(sp.id, tr.source_id), "
            "COALESCE(tp.id, tr.target_id), tr.amount, m.new_id, na.id, "
            "'hand ' || n.number || ' at table ' || t.number, tr.created_by_id, tr.created_at "
            f"FROM seed_map m JOIN {transfer_t} tr ON tr.hand_id = m.old_id "
            f"JOIN {hand_t} n ON n.id = m.new_id JOIN {table_t} t ON t.id = n.table_id "
            f"JOIN {account_t} sa ON sa.id = tr.source_id "
            f"JOIN {account_t} ta ON ta.id = tr.target_id "
            f"LEFT JOIN {account_t} sp ON sa.kind = 'pot' AND sp.kind = 'pot' "
            "AND sp.hand_id = m.new_id AND sp.pot_index = sa.pot_index "
            f"LEFT JOIN {account_t} tp ON ta.kind = 'pot' AND tp.kind = 'pot' "
            "AND tp.hand_id = m.new_id AND tp.pot_index = ta.pot_index "
            f"LEFT JOIN {action_t} oa ON oa.id = tr.action_id "
            f"LEFT JOIN {action_t} na ON na.hand_id = m.new_id AND na.seq = oa.seq "
            "ORDER BY m.new_id, tr.id"
        )
        cur.execute(
            f"INSERT INTO {dealt_t} (hand_id, player_id) SELECT m.new_id, d.player_id "
            f"FROM seed_map m JOIN {dealt_t} d ON d.hand_id = m.old_id"
        )
        # The caches the services keep: stacks from the ledger, standings from the hands.
        cur.execute(
            f"UPDATE {seat_t} s SET stack = b.balance FROM ("
            "SELECT a.seat_id, SUM(CASE WHEN tr.target_id = a.id THEN tr.amount "
            "ELSE -tr.amount END) AS balance "
            f"FROM {account_t} a JOIN {transfer_t} tr "
            "ON tr.target_id = a.id OR tr.source_id = a.id "
            "WHERE a.kind = 'stack' AND a.event_id = %s GROUP BY a.seat_id) b "
            "WHERE s.id = b.seat_id",
            [event.pk],
        )
        cur.execute(
            f"UPDATE {standing_t} s SET hands_played = c.played, hands_won = c.won FROM ("
            "SELECT (e->>'player_id')::bigint AS player_id, count(*) AS played, "
            "count(*) FILTER (WHERE h.result->'pots'->0->'shares' ? (e->>'seat')) AS won "
            f"FROM {hand_t} h CROSS JOIN LATERAL jsonb_array_elements(h.seats) e "
            f"WHERE h.table_id IN (SELECT id FROM {table_t} WHERE day_id = %s) "
            "GROUP BY 1) c WHERE s.player_id = c.player_id AND s.day_id = %s",
            [day.pk, day.pk],
        )
        cur.execute(
            f"SELECT count(*) FROM {hand_t} h JOIN {table_t} t ON t.id = h.table_id "
            "WHERE t.day_id = %s",
            [day.pk],
        )
        (n_hands,) = cur.fetchone()
    # The copies' records (their hand numbers differ from the cycle's, and so their hashes).
    chain.rebuild_actions(Hand.objects.filter(table__day=day, number__gt=CYCLE))
    if vacuum:
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE")
    sql_s = time.perf_counter() - t
    return {
        "event": event.pk,
        "players": players,
        "tables": n_tables,
        "hands": int(n_hands),
        "services_seconds": services_s,
        "bulk_sql_seconds": sql_s,
    }
