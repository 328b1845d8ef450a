"""Every action of a hand as a check and a change, kept apart (RULES §3, §4b).

For each action name, :data:`TABLE` holds a :class:`Rule`:

* ``verify(state, action)`` raises :class:`~.errors.IllegalAction` (a stable code) when the
  action is not legal now, and never changes the state;
* ``change(state, action)`` performs an action that ``verify`` accepted; it never raises.

:meth:`.state.HandState.apply` is ``verify`` then ``change``, so a rejected action changes
nothing; ``can`` and ``legal_actions`` ask ``verify`` only. The checks every action shares (the
hand is not over, the action is known, it carries only its own fields) come first, in
:func:`verify`; then the action's own, in the order the error codes document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .cards import cards_str, parse_cards
from .errors import EngineError, IllegalAction
from .model import (
    ACTIVE,
    BETTING,
    CHOOSING,
    COVERED,
    DISQUALIFIED,
    FIELDS,
    FOLDED,
    HANDS,
    NEW,
    OLD,
    REASON_MAX,
    SETTLED,
    SHOWING,
    Action,
    Player,
    Pot,
    status_words,
)
from .settlement import (
    conceding_against,
    settle,
    settle_carry,
    settle_if_complete,
    settle_misdeal,
    settle_nobody,
)

if TYPE_CHECKING:
    from .state import HandState

Step = Callable[["HandState", Action], None]


class Rule(NamedTuple):
    """An action's check (raises, changes nothing) and its change (never raises)."""

    verify: Step
    change: Step


def verify(s: HandState, a: Action) -> Rule:
    """Raise :class:`IllegalAction` unless ``a`` is legal now; return its :class:`Rule`.
    Changes nothing."""
    kind = a.action
    if s.phase == SETTLED:
        raise IllegalAction("hand_over")
    try:
        rule = TABLE[kind]
    except (KeyError, TypeError):  # TypeError: a name that is not even hashable
        raise IllegalAction("unknown_action", action=kind) from None
    if a.amount is not None and "amount" not in FIELDS[kind]:
        raise IllegalAction("unexpected_field", field="amount", action=kind)
    # Most actions carry none of these: the check is skipped on the hot path of a replay.
    if a.hand is not None or a.cards is not None or a.reason is not None:
        _check_text_fields(a, FIELDS[kind])
    rule.verify(s, a)
    return rule


def _check_text_fields(a: Action, allowed: tuple[str, ...]) -> None:
    """Refuse a hand, cards or reason the action does not carry, or one that is not text."""
    kind = a.action
    if a.hand is not None and ("hand" not in allowed or not isinstance(a.hand, str)):
        if "hand" in allowed:
            raise IllegalAction("invalid_hand", hand=a.hand, who="the player", choices="old or new")
        raise IllegalAction("unexpected_field", field="hand", action=kind)
    if a.cards is not None and ("cards" not in allowed or not isinstance(a.cards, str)):
        if "cards" in allowed:
            raise IllegalAction("invalid_card", card=repr(a.cards))
        raise IllegalAction("unexpected_field", field="cards", action=kind)
    if a.reason is not None and "reason" not in allowed:
        raise IllegalAction("unexpected_field", field="reason", action=kind)


# ---------------------------------------------------------------------------- shared checks


def _no_seat(a: Action) -> None:
    if a.seat is not None:
        raise IllegalAction("unexpected_field", field="seat", action=a.action)


def _seated(s: HandState, a: Action) -> Player:
    """The dealt-in player ``a`` names (a whole number, not ``True`` or ``False``)."""
    seat = a.seat
    if (
        type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int))
    ) or seat not in s.by_seat:
        raise IllegalAction("unknown_seat", seat=seat)
    return s.by_seat[seat]


def _player(s: HandState, a: Action) -> Player:
    """The player ``a`` names, once the phase allows their action: in the showdown only cards
    are entered or given up; while a hand is to be chosen, only that; while a player decides
    on a hand they looked at, only that."""
    # _seated's check, repeated here: this runs for nearly every action of a replay.
    seat = a.seat
    if (
        type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int))
    ) or seat not in s.by_seat:
        raise IllegalAction("unknown_seat", seat=seat)
    p = s.by_seat[seat]
    kind = a.action
    if s.phase == SHOWING:
        if kind not in ("show", "concede"):
            raise IllegalAction("cards_required", seats=s._labels(s.cards_needed))
        return p
    if s.phase == CHOOSING:
        if kind != "discard" or p.seat not in s.must_choose:
            who = s.by_seat[s.must_choose[0]]
            raise IllegalAction("choose_hand_first", who=who.label, purpose=s._purpose())
        return p
    if kind == "show":
        raise IllegalAction("cards_not_needed", who=p.label)
    if kind == "concede":
        raise IllegalAction("concede_not_now", who=p.label)
    pending = s.pending
    if pending is not None and (pending is not p or kind not in ("keep", "discard")):
        raise IllegalAction("decision_pending", who=pending.label, hand=pending.looked)
    return p


def _at_turn(s: HandState, a: Action) -> Player:
    """The player ``a`` names, still betting and whose turn it is."""
    p = _player(s, a)
    if p.status != ACTIVE:
        raise IllegalAction("player_out", who=p.label, status=status_words(p.status))
    current = s.players[s.turn]
    if current is not p:
        raise IllegalAction("not_your_turn", turn=current.label, who=p.label)
    return p


def _active(s: HandState) -> list[Player]:
    return [q for q in s.players if q.status == ACTIVE]


def _afford(s: HandState, p: Player, amount: int) -> None:
    """Refuse a bet or a see that ``p``'s stack cannot pay (a cover is how to go all in)."""
    if amount > p.stack:
        hint = (
            "; they may cover the pot (put in their whole stack) or fold"
            if s.rules.cover_allowed
            else "; they may only fold"
        )
        raise IllegalAction(
            "insufficient_stack", who=p.label, stack=p.stack, amount=amount, hint=hint
        )


def _hand_name(p: Player, hand: str | None) -> None:
    """Refuse a missing hand name, or one that is neither ``old`` nor ``new``."""
    if hand is None:
        raise IllegalAction("hand_required", who=p.label, choices="old or new")
    if hand not in HANDS:
        raise IllegalAction("invalid_hand", hand=hand, who=p.label, choices="old or new")


# ---------------------------------------------------------------------------- shared changes


def _actor(s: HandState, a: Action) -> Player:
    """The player of an action ``verify`` accepted."""
    assert a.seat is not None
    return s.by_seat[a.seat]


def _put_in(s: HandState, p: Player, amount: int) -> None:
    """``p`` puts ``amount`` from their stack into the newest pot."""
    p.stack -= amount
    p.paid += amount
    s.pots[-1].amount += amount


def _advance(s: HandState) -> None:
    """Pass the turn to the next player still betting."""
    players = s.players
    n = len(players)
    i = s.turn
    for _ in range(n):
        i = (i + 1) % n
        if players[i].status == ACTIVE:
            s.turn = i
            return
    raise AssertionError("no active player to move to")  # pragma: no cover


def _fold_out(s: HandState, p: Player) -> None:
    """A fold — the player's own, at their turn, or the floor's out of turn (a
    disqualification): the turn passes on only if it was theirs; one player left wins as
    after any last fold."""
    p.status = FOLDED
    if s.pending is p:
        p.looked = None
        s.pending = None
    active = _active(s)
    if len(active) == 1:
        if s.pending is not None:  # the winner's look at one of two hands is moot
            s.pending.looked = None
            s.pending = None
        _end_betting(s, "folds")
    elif s.players[s.turn] is p:
        _advance(s)


def _end_betting(s: HandState, how: str) -> None:
    s.turn = -1
    s.end = how
    active = _active(s)
    # Shown as the pots are settled (RULES §3.8): the newest first, then each older pot's
    # coverer, so a covering player's turn to show comes when their comparison is due and
    # they may give up instead.
    coverers = s._coverers()[::-1]
    if how == "folds":
        if not coverers:
            _end_by_folds(s, active[0])
            return
        show = [active[0], *coverers]
    elif how == "see":
        assert s.seer is not None and s.seen is not None
        show = [s.seen, s.seer, *coverers]
    else:  # cover (the last two) or an agreed showdown
        show = [*active, *coverers]
    s.show_seats = [q.seat for q in show]
    s.must_choose = [q.seat for q in show if q.hands == 2]
    s.phase = CHOOSING if s.must_choose else SHOWING


def _end_by_folds(s: HandState, winner: Player) -> None:
    """Everyone else folded and nobody covered: a blind winner's pot is carried (once they
    chose which of two hands to keep), an open winner's is won."""
    if not (winner.blind and s.rules.blind_allowed):
        settle(s, {})
    elif winner.hands == 2:
        s.must_choose = [winner.seat]
        s.phase = CHOOSING
    else:
        settle_carry(s)


def _end_again(s: HandState) -> None:
    """The betting is over and a player has just been folded out of the hand: end it again
    with the players still in it (see :func:`_disqualify`)."""
    active = _active(s)
    end = s.end
    if len(active) >= 2:
        how = end or "showdown"  # a see with both still in (a coverer left), or a showdown
    elif len(active) == 1:
        how = "cover" if end == "cover" and s.pots[-1].coverers else "folds"
    else:
        how = DISQUALIFIED
    s.must_choose = []
    s.show_seats = []
    # The comparisons change with the player gone: a concession is entered again if it
    # still stands (RULES §3.6).
    s.conceded = []
    if how != "see":
        s.seer = s.seen = None
    if how == DISQUALIFIED and len(s._coverers()) <= 1:
        s.end = how
        s.turn = -1
        if s._coverers():
            settle(s, {})  # one player left in the hand: nothing to compare
        else:
            settle_nobody(s)
        return
    _end_betting(s, how)
    if s.phase == SHOWING:
        settle_if_complete(s)


# ---------------------------------------------------------------------------- look, keep, discard


def _verify_look(s: HandState, a: Action) -> None:
    p = _player(s, a)
    hand = a.hand
    if p.status != ACTIVE:
        raise IllegalAction("player_out", who=p.label, status=status_words(p.status))
    if not p.blind:
        raise IllegalAction("already_open", who=p.label)
    current = s.players[s.turn]
    if p.hands == 2:
        _hand_name(p, hand)
        if current is not p:
            raise IllegalAction(
                "look_not_your_turn",
                why="A player holding two blind hands may look only at their own turn",
                turn=current.label,
            )
        return
    if hand is not None and hand != p.held:
        raise IllegalAction("invalid_hand", hand=hand, who=p.label, choices=p.held)
    if s.stake and current is not p:
        raise IllegalAction(
            "look_not_your_turn",
            why="Once betting has started a blind player may look only at their own turn",
            turn=current.label,
        )


def _look(s: HandState, a: Action) -> None:
    p = _actor(s, a)
    if p.hands == 2:
        p.looked = a.hand
        s.pending = p
    else:
        p.blind = False


def _verify_keep(s: HandState, a: Action) -> None:
    p = _player(s, a)
    if s.pending is not p or p.looked is None:
        raise IllegalAction("nothing_to_keep", who=p.label)


def _keep(s: HandState, a: Action) -> None:
    p = _actor(s, a)
    p.held = p.looked or NEW
    p.hands = 1
    p.blind = False
    p.looked = None
    s.pending = None


def _verify_discard(s: HandState, a: Action) -> None:
    """While a hand is to be chosen (the betting is over): which of two hands is thrown in.
    In the betting: a player who looked at one of two blind hands throws one in."""
    p = _player(s, a)
    if s.phase == CHOOSING:
        _hand_name(p, a.hand)
        return
    if s.pending is not p or p.looked is None:
        raise IllegalAction("discard_not_allowed", who=p.label)
    hand = a.hand if a.hand is not None else p.looked
    if hand not in HANDS:
        raise IllegalAction("invalid_hand", hand=hand, who=p.label, choices="old or new")


def _discard(s: HandState, a: Action) -> None:
    p = _actor(s, a)
    if s.phase == CHOOSING:
        _choose(s, p, a.hand)
        return
    looked = p.looked
    hand = a.hand if a.hand is not None else looked
    if hand == looked:
        # Throw in the looked-at hand: stay blind with the other.
        p.held = OLD if looked == NEW else NEW
        p.blind = True
    else:
        # Throwing in the unseen one is keeping the looked-at hand.
        p.held = looked or NEW
        p.blind = False
    p.hands = 1
    p.looked = None
    s.pending = None


def _choose(s: HandState, p: Player, hand: str | None) -> None:
    p.hands = 1
    p.held = OLD if hand == NEW else NEW
    s.must_choose.remove(p.seat)
    if s.must_choose:
        return
    if s.end == "folds" and not s._coverers():
        settle_carry(s)
    else:
        s.phase = SHOWING


# ---------------------------------------------------------------------------- betting


def _verify_bet(s: HandState, a: Action) -> None:
    p = _at_turn(s, a)
    amount = a.amount
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise IllegalAction("invalid_amount", amount=amount, minimum=1)
    blind = p.blind
    if blind and not s.rules.blind_allowed:
        raise IllegalAction("blind_play_not_allowed", who=p.label)
    lo, hi = s._bounds(blind)
    if lo > hi:
        raise IllegalAction("blind_bet_impossible", who=p.label)
    if amount < lo or amount > hi:
        _raise_limit(s, p, amount, lo, hi)
    _afford(s, p, amount)


def _raise_limit(s: HandState, p: Player, amount: int, lo: int, hi: int) -> None:
    """Raise the code for a bet outside the limits ``lo`` … ``hi``."""
    rules = s.rules
    blind = p.blind
    note = " (blind: counts double)" if blind else ""
    common: dict[str, Any] = {"who": p.label, "least": lo, "most": hi, "blind_note": note}
    if amount < lo:
        if s.stake == 0:
            raise IllegalAction("bet_below_min", min_bet=rules.min_bet, **common)
        raise IllegalAction("bet_below_stake", stake=s.stake, **common)
    if rules.pot_limit and hi < s._bounds(blind, False)[1]:
        raise IllegalAction("raise_above_pot", pot=s.pot_total, **common)
    if s.stake == 0:
        raise IllegalAction("bet_above_max", max_bet=rules.max_bet, **common)
    raise IllegalAction("raise_above_max", max_raise=rules.max_raise, stake=s.stake, **common)


def _bet(s: HandState, a: Action) -> None:
    p = _actor(s, a)
    amount = a.amount
    assert amount is not None
    stake = 2 * amount if p.blind else amount
    _put_in(s, p, amount)
    s.stake = stake
    _advance(s)


def _verify_fold(s: HandState, a: Action) -> None:
    _at_turn(s, a)


def _fold(s: HandState, a: Action) -> None:
    _fold_out(s, _actor(s, a))


def _verify_see(s: HandState, a: Action) -> None:
    p = _at_turn(s, a)
    active = _active(s)
    if len(active) != 2:
        raise IllegalAction("see_needs_two_players", count=len(active))
    if not s.stake:
        raise IllegalAction("see_needs_stake")
    if p.blind and not s.rules.blind_allowed:
        raise IllegalAction("blind_play_not_allowed", who=p.label)
    other = active[0] if active[1] is p else active[1]
    if not p.blind and other.blind:
        raise IllegalAction("cannot_see_blind", who=p.label, other=other.label)
    cost = s._see_cost(p)
    amount = a.amount
    if amount is not None and (type(amount) is not int or amount != cost):
        raise IllegalAction("see_wrong_amount", who=p.label, cost=cost, amount=amount)
    _afford(s, p, cost)


def _see(s: HandState, a: Action) -> None:
    p = _actor(s, a)
    active = _active(s)
    _put_in(s, p, s._see_cost(p))
    s.seer = p
    s.seen = active[0] if active[1] is p else active[1]
    _end_betting(s, "see")


def _verify_cover(s: HandState, a: Action) -> None:
    p = _at_turn(s, a)
    if not s.rules.cover_allowed:
        raise IllegalAction("cover_not_allowed")
    least = s._least_stay(p)
    if p.stack >= least and not _short_to_see(s, p):
        raise IllegalAction("cover_not_needed", who=p.label, least=least)
    amount = a.amount
    if amount is not None and (type(amount) is not int or amount != p.stack):
        raise IllegalAction("cover_wrong_amount", stack=p.stack, amount=amount)


def _short_to_see(s: HandState, p: Player) -> bool:
    """Whether ``p`` could see the last other player but cannot pay for it."""
    active = _active(s)
    if len(active) != 2 or not s.stake:
        return False
    other = active[0] if active[1] is p else active[1]
    return (p.blind or not other.blind) and p.stack < s._see_cost(p)


def _cover(s: HandState, a: Action) -> None:
    p = _actor(s, a)
    pot = s.pots[-1]
    pot.amount += p.stack
    pot.coverers.append(p.seat)
    p.paid += p.stack
    p.stack = 0
    p.status = COVERED
    if len(_active(s)) >= 2:
        s.pots.append(Pot())
        _advance(s)
    else:
        _end_betting(s, "cover")


def _verify_showdown(s: HandState, a: Action) -> None:
    _no_seat(a)
    if s.phase == SHOWING:
        raise IllegalAction("cards_required", seats=s._labels(s.cards_needed))
    if s.phase == CHOOSING:
        who = s.by_seat[s.must_choose[0]]
        raise IllegalAction("choose_hand_first", who=who.label, purpose=s._purpose())
    if s.pending is not None:
        p = s.pending
        raise IllegalAction("decision_pending", who=p.label, hand=p.looked)
    count = len(_active(s))
    if count < 3:
        raise IllegalAction("showdown_needs_three", count=count)


def _showdown(s: HandState, a: Action) -> None:
    _end_betting(s, "showdown")


# ---------------------------------------------------------------------------- the showdown


def _verify_show(s: HandState, a: Action) -> None:
    p = _player(s, a)
    if p.seat not in s.show_seats or p.cards is not None or p.seat in s.conceded:
        raise IllegalAction("cards_not_needed", who=p.label)
    if a.cards is None:
        raise IllegalAction("wrong_card_count", expected=3, got=0)
    try:
        cards = parse_cards(a.cards, 3)
    except EngineError as err:
        raise IllegalAction(err.code, **err.details) from None
    for q in s.players:
        if q.cards is None:
            continue
        for c in cards:
            if c in q.cards:
                raise IllegalAction("card_already_shown", card=cards_str([c]), other=q.label)


def _show(s: HandState, a: Action) -> None:
    assert a.cards is not None
    _actor(s, a).cards = parse_cards(a.cards, 3)
    settle_if_complete(s)


def _verify_concede(s: HandState, a: Action) -> None:
    """RULES §3.6, §3.8: a player who saw, or who covered a pot, may give up without
    showing once the hand they play against is shown; they lose that comparison (and with
    it every older pot they could only win through it)."""
    p = _player(s, a)
    if p.seat in s.conceded:
        raise IllegalAction("already_conceded", who=p.label)
    if p.seat not in s.show_seats:
        raise IllegalAction("concede_not_in_showdown", who=p.label)
    if p.cards is not None:
        raise IllegalAction("already_shown", who=p.label)
    against = conceding_against(s, p)
    if against.cards is None:
        raise IllegalAction("concede_too_early", who=p.label, other=against.label)


def _concede(s: HandState, a: Action) -> None:
    s.conceded.append(_actor(s, a).seat)
    settle_if_complete(s)


# ---------------------------------------------------------------------------- the floor's


def _verify_misdeal(s: HandState, a: Action) -> None:
    """RULES §4b: up to the first see, cover-settlement or showdown — that is, while the
    betting goes on."""
    _no_seat(a)
    reason = a.reason
    if reason is not None and (not isinstance(reason, str) or len(reason) > REASON_MAX):
        raise IllegalAction("invalid_reason", most=REASON_MAX)
    if s.phase != BETTING:
        raise IllegalAction("misdeal_too_late", end=s.end or "betting")


def _misdeal(s: HandState, a: Action) -> None:
    settle_misdeal(s, a.reason)


def _verify_disqualify(s: HandState, a: Action) -> None:
    p = _seated(s, a)
    if p.status == FOLDED:
        raise IllegalAction("player_out", who=p.label, status=status_words(p.status))


def _disqualify(s: HandState, a: Action) -> None:
    """RULES §4b: a disqualified player's live hand is folded, out of turn, at any moment
    before the hand settles; what they paid stays in the pot(s) it went into.

    While the betting goes on it is a fold (the turn passes on only if it was theirs); a
    player who covered leaves the pot(s) they covered, which then go to the newer pot's
    winner. Once the betting is over (cards still to choose or show), the hand's end is
    decided again without them, as if they had folded: one player left in the betting wins
    as after the last fold, and the hands still needed are shown."""
    p = _actor(s, a)
    s.disqualified.append(p.seat)
    if p.status == COVERED:
        for pot in s.pots:
            if p.seat in pot.coverers:
                pot.coverers.remove(p.seat)
    elif s.phase == BETTING:
        _fold_out(s, p)
        return
    p.status = FOLDED
    if s.phase != BETTING:
        _end_again(s)


TABLE: Final[dict[str, Rule]] = {
    "look": Rule(_verify_look, _look),
    "keep": Rule(_verify_keep, _keep),
    "discard": Rule(_verify_discard, _discard),
    "bet": Rule(_verify_bet, _bet),
    "fold": Rule(_verify_fold, _fold),
    "see": Rule(_verify_see, _see),
    "cover": Rule(_verify_cover, _cover),
    "showdown": Rule(_verify_showdown, _showdown),
    "show": Rule(_verify_show, _show),
    "concede": Rule(_verify_concede, _concede),
    "misdeal": Rule(_verify_misdeal, _misdeal),
    "disqualify": Rule(_verify_disqualify, _disqualify),
}
