"""Who plays which day: a day's field, the cut its close makes, and an organiser letting a player
back in.

Days follow one another and each day's seating is drawn only from the qualifiers of the close
before it. So a day's close chooses only among the players who were allowed to play that day —
its *field*: on the first day everyone registered, on a later day the qualifiers the previous
close wrote (``Qualification`` rows) — never among players a cut already put out. Anyone else
comes back only by an organiser's explicit decision with a reason (``player_requalify``), which
the audit log keeps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.events.day_chain import day_chain_append
from brag_event.events.models import Day
from brag_event.events.states import day_before, day_for_change

from . import versions
from .disqualified import disqualified_ids
from .models import Player, Qualification

REASON_MAX = 200
REQUALIFIED = "let back in by the organiser: "  # how a reinstatement's reason begins


def only_qualifiers(day: Day) -> bool:
    """Whether only qualified players sit down on ``day``: on a day that follows another, the
    qualifiers the close of the day before wrote, and nobody else (none written: nobody); on
    the first day everyone registered — unless qualifications were recorded for it by hand."""
    follows = Day.objects.filter(event_id=day.event_id, number__lt=day.number).exists()
    return follows or day.qualified.exists()


def day_field(day: Day) -> set[int]:
    """The players allowed to play ``day``: its qualifiers (``only_qualifiers``), else everyone
    registered; never a withdrawn or disqualified player."""
    players = Player.objects.filter(event_id=day.event_id, withdrawn_at__isnull=True)
    if only_qualifiers(day):
        players = players.filter(qualifications__day=day)
    return set(players.values_list("pk", flat=True)) - disqualified_ids(day.event_id)


def following_day(day: Day) -> Day | None:
    """The day after ``day`` in its event, if any."""
    return (
        Day.objects.filter(event_id=day.event_id, number__gt=day.number).order_by("number").first()
    )


@dataclass
class Cut:
    """What a day's close decides (or would decide now): who qualifies for ``following`` and
    why, and who does not and why, in words. ``need`` is what ``following`` costs to sit down
    (its table minimum plus fee)."""

    day: Day
    following: Day | None
    need: int | None
    rule: str
    top: int | None
    qualified: dict[int, str] = field(default_factory=dict)
    missed: dict[int, str] = field(default_factory=dict)

    @property
    def rule_text(self) -> str:
        if self.following is None:
            return "the last day: nobody goes on"
        if self.rule == "top" and self.top:
            return (
                f"the top {self.top} of the players of day {self.day.number} who can afford "
                f"day {self.following.number} ({self.need} {self.day.event.currency}); "
                "ties at the cut all go through"
            )
        return (
            f"every player of day {self.day.number} who can afford day "
            f"{self.following.number} ({self.need} {self.day.event.currency})"
        )


def day_cut(
    day: Day,
    rows: list[dict[str, Any]],
    *,
    rule: str | None = None,
    top: int | None = None,
    field_ids: set[int] | None = None,
) -> Cut:
    """The cut of ``day`` over ``rows`` (``standings.selectors.standings``, ranked): among the
    players of the day's field who were dealt into at least one hand that day (RULES §4b, "Who
    can qualify"), everyone who can afford the next day, or the ``top`` N of them (ties at the
    cut all qualify). ``rule``/``top`` default to the day's own."""
    rule = rule or day.qualify_rule
    top = top if rule == "top" else None
    if rule == "top" and top is None:
        top = day.qualify_top
    following = following_day(day)
    need = following.table_min + following.house_fee if following else None
    cut = Cut(day=day, following=following, need=need, rule=rule, top=top)
    if following is None or need is None:
        return cut
    allowed = day_field(day) if field_ids is None else field_ids
    withdrawn = set(
        Player.objects.filter(event_id=day.event_id, withdrawn_at__isnull=False).values_list(
            "pk", flat=True
        )
    )
    able: list[dict[str, Any]] = []
    for r in rows:
        player = r["player"]
        if r.get("disqualified"):
            cut.missed[player] = "disqualified"
        elif player in withdrawn:
            cut.missed[player] = "withdrawn from the event"
        elif player not in allowed:
            cut.missed[player] = f"was not in day {day.number}'s field (out at an earlier cut)"
        elif not r["hands_played"]:
            # RULES §4b, "Who can qualify": sitting a day out is no way through its cut.
            cut.missed[player] = f"did not play day {day.number} (dealt into no hand)"
        elif r["total"] < need:
            cut.missed[player] = (
                f"has {r['total']}; day {following.number} needs {need} (table minimum plus fee)"
            )
        else:
            able.append(r)
    chosen = able
    if rule == "top" and top:
        chosen = able[:top]
        if chosen:
            last = chosen[-1]["total"]
            chosen += [r for r in able[top:] if r["total"] == last]
        for r in able:
            if r not in chosen:
                cut.missed[r["player"]] = f"ranked {r['rank']}, below the top {top}"
        for r in chosen:
            cut.qualified[r["player"]] = f"top {top} (ranked {r['rank']})"
    else:
        for r in chosen:
            cut.qualified[r["player"]] = f"can afford day {following.number} ({need})"
    return cut


LET_BACK = "let_back"  # a let-back-in's kind on its day's own chain


def let_back_fields(q: Qualification) -> dict[str, Any]:
    """A player let back in, as chained onto the day's own chain (``closing.record`` reads the
    same back from the row)."""
    return {
        "player": q.player_id,
        "reason": q.reason,
        "by": q.created_by_id,
        "at": q.created_at.isoformat() if q.created_at is not None else None,
    }


@service_transaction
def player_requalify(*, day: Day, player: Player, reason: str, by: Actor | None) -> Qualification:
    """Let a player who is not among ``day``'s qualifiers play it anyway: the organiser's
    explicit decision, with a reason, kept in the audit log. Only for a day that follows
    another, once that day has closed and until ``day`` starts closing; never a withdrawn or
    disqualified player."""
    day = day_for_change(day.pk)
    words = " ".join(str(reason).split())[:REASON_MAX]
    if not words:
        raise ServiceError(
            "reason_required",
            "Say why this player is let back in: the reason is kept in the audit log.",
            details={"field": "reason"},
        )
    before = day_before(day)
    if before is None:
        raise ServiceError(
            "first_day",
            f"Day {day.number} is the first day: every registered player may play it.",
            details={"day": day.number},
        )
    if before.status != Day.Status.CLOSED:
        raise ServiceError(
            "previous_day_not_closed",
            f"Day {before.number} has not closed yet: its cut is not made, so nobody can be "
            "let back in past it.",
            details={"day": day.number, "previous": before.number},
        )
    if day.status not in (Day.Status.SCHEDULED, Day.Status.OPEN):
        raise ServiceError(
            "day_closing" if day.status == Day.Status.CLOSING else "day_closed",
            f"Day {day.number} is {day.get_status_display().lower()}: its players can no "
            "longer change.",
            details={"day": day.number, "status": day.status},
        )
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    if player.event_id != day.event_id:
        raise ServiceError("not_in_event", f"{player} is not registered for this event.")
    if player.withdrawn_at is not None:
        raise ServiceError(
            "player_withdrawn",
            f"{player} has withdrawn: take the withdrawal back first.",
            details={"player": player.pk},
        )
    if player.pk in disqualified_ids(day.event_id):
        raise ServiceError(
            "player_disqualified",
            f"{player} is disqualified: a disqualified player never plays again.",
            details={"player": player.pk},
        )
    if Qualification.objects.filter(day=day, player=player).exists():
        raise Conflict(
            "already_qualified",
            f"{player} already plays day {day.number}.",
            details={"player": player.pk},
        )
    found = Qualification.objects.create(
        day=day,
        player=player,
        reason=(REQUALIFIED + words)[:120],
        created_by=by.user if by is not None and by.user_id else None,
        created_at=timezone.now(),
    )
    # On the day's own record (its root covers it once the day closes).
    found.seq, found.hash = day_chain_append(day=day, kind=LET_BACK, fields=let_back_fields(found))
    found.save(update_fields=["seq", "hash"])
    day.save(update_fields=["record_seq", "record_head"])
    versions.event_changed(day.event_id)
    audit_record(
        by=by,
        verb=Verb.PLAYER_REQUALIFY,
        subject=player,
        day=day,
        target=f"{player} for day {day.number}",
        data={"day": day.number, "reason": words},
        event_id=day.event_id,
    )
    return found
