"""Stable error codes with messages a dealer understands.

Every rule the engine enforces has a code here. Codes never change meaning; messages may be
reworded. ``docs/error-codes.md`` lists them (a test keeps the two in step).
"""

from __future__ import annotations

from typing import Any, Final

MESSAGES: Final[dict[str, str]] = {
    # Cards
    "invalid_card": "'{card}' is not a card: use a rank A K Q J 10 9 … 2 and a suit c d h s, "
    "e.g. As or 10d.",
    "wrong_card_count": "A hand is exactly {expected} cards, not {got}.",
    "duplicate_card": "The card {card} appears twice.",
    "card_already_shown": "The card {card} is already in {other}'s hand.",
    # Set-up and documents
    "invalid_rules": "The rules are not valid: {problem}",
    "invalid_setup": "The table is not valid: {problem}.",
    "not_enough_players": "A hand needs at least two players who can pay the ante of {ante}; "
    "{count} can be dealt in.",
    "invalid_history": "This is not a valid brag-hh/1 hand history: {problem}.",
    "missing_cards": "The cards of {who} must be shown to settle the hand.",
    # Actions: general
    "hand_over": "The hand is over; no more actions can be entered.",
    "unknown_action": "'{action}' is not an action: use look, keep, discard, bet, fold, see, "
    "cover, showdown, show or concede.",
    "unknown_seat": "Seat {seat} is not dealt in to this hand.",
    "player_out": "{who} has {status} and takes no further part in the betting.",
    "not_your_turn": "It is {turn}'s turn, not {who}'s.",
    "unexpected_field": "'{field}' does not belong with '{action}'; leave it out.",
    "invalid_amount": "The amount must be a whole number of at least {minimum}; got {amount}.",
    "decision_pending": "{who} looked at their {hand} hand and must keep it or throw it in "
    "before anything else happens.",
    "choose_hand_first": "{who} holds two blind hands and must throw one in (unseen) {purpose}.",
    "cards_required": "The betting is over: enter the cards of {seats}.",
    "cards_not_needed": "{who}'s cards are not needed now.",
    # Giving up at the showdown
    "concede_not_now": "{who} can give up without showing only after a see or a covered pot, "
    "once the other hand is shown; during the betting they may fold.",
    "concede_not_in_showdown": "{who} has no hand to compare now, so there is nothing to give up.",
    "concede_must_show": "{who} must show: only the player who saw, or a player who covered the "
    "pot, may give up without showing.",
    "concede_too_early": "{who} may give up only after {other} has shown.",
    "already_shown": "{who} has shown their hand already and cannot give it up.",
    "already_conceded": "{who} has already given up.",
    # Looking and two hands
    "already_open": "{who} has already looked at their cards.",
    "look_not_your_turn": "{why}; it is {turn}'s turn.",
    "hand_required": "{who} holds two hands: say which one ({choices}).",
    "invalid_hand": "'{hand}' is not one of {who}'s hands ({choices}).",
    "nothing_to_keep": "{who} has not just looked at one of two hands, so there is nothing to "
    "keep.",
    "discard_not_allowed": "{who} may throw in a hand only right after looking at one of two "
    "hands, or when choosing one before a showdown.",
    # Betting
    "blind_play_not_allowed": "Blind play is not allowed today: {who} must look at their cards "
    "before betting.",
    "blind_bet_impossible": "No blind payment fits today's limits: {who} must look before betting.",
    "bet_below_min": "The first bet is at least {min_bet}: {who} must pay at least {least}"
    "{blind_note}.",
    "bet_above_max": "The first bet is at most {max_bet}: {who} may pay at most {most}"
    "{blind_note}.",
    "bet_below_stake": "The stake is {stake}: {who} must pay at least {least}{blind_note}.",
    "raise_above_max": "A raise adds at most {max_raise} to the stake of {stake}: {who} may pay "
    "at most {most}{blind_note}.",
    "raise_above_pot": "Bets are limited by the pot ({pot}) today: {who} may pay at most "
    "{most}{blind_note}.",
    "insufficient_stack": "{who} has only {stack} on the table and cannot pay {amount}{hint}.",
    # Seeing
    "see_needs_two_players": "Seeing is possible only when exactly two players are left in the "
    "betting; {count} are left.",
    "see_needs_stake": "Nobody has bet yet, so there is nothing to see.",
    "cannot_see_blind": "{who} has looked and cannot see a blind player ({other}): bet or fold.",
    "see_wrong_amount": "Seeing costs {who} exactly {cost}; got {amount}.",
    # Covering
    "cover_not_allowed": "Covering the pot is not allowed today: a player who cannot pay must "
    "fold.",
    "cover_not_needed": "{who} can still pay {least} to stay in, so cannot cover the pot.",
    "cover_wrong_amount": "Covering puts the whole stack in: {stack}, not {amount}.",
    # Floor (RULES §4b)
    "misdeal_too_late": "A misdeal can be declared only while the betting goes on, before the "
    "first see, cover-settlement or showdown; this hand's betting has ended ({end}).",
    "invalid_reason": "The reason is text of at most {most} characters.",
    # Showdown
    "showdown_needs_three": "An agreed showdown needs three or more players left in the betting; "
    "{count} are left.",
}


class EngineError(Exception):
    """An error with a stable ``code``, a dealer-readable ``message`` and ``details``.

    ``index`` is the position of the offending action in a hand history, when there is one.
    """

    def __init__(self, code: str, *, index: int | None = None, **details: Any) -> None:
        if code not in MESSAGES:
            raise KeyError(f"unknown engine error code {code!r}")
        self.code = code
        self.details = details
        self.index = index
        try:
            self.message = MESSAGES[code].format(**details)
        except (KeyError, IndexError):  # pragma: no cover - guarded by tests of every code
            self.message = MESSAGES[code]
        super().__init__(self.message)

    def with_index(self, index: int) -> EngineError:
        """This error, marked with the index of the action that caused it."""
        self.index = index
        return self

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.index is not None:
            out["index"] = self.index
        plain = {k: v for k, v in self.details.items() if isinstance(v, int | str | None)}
        if plain:
            out["details"] = plain
        return out


class IllegalAction(EngineError):
    """An action that the rules do not allow in this state. The state is unchanged."""
