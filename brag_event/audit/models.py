"""Audit log of every change made by a person (or the system): who, from which device, when,
which kind of change (``Verb``, an enumeration) and what it was done to — real references to
the day, table, hand, seat, player or device token concerned, so the log can be asked
"everything that happened to table 3" or "everything this supervisor did"."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Verb(models.TextChoices):
    """Every kind of change the log records. A value never changes meaning; add new ones."""

    EVENT_CREATE = "event.create", "event created"
    EVENT_UPDATE = "event.update", "event changed"
    DAY_CREATE = "day.create", "day created"
    DAY_UPDATE = "day.update", "day changed"
    DAY_RULES = "day.rules", "day's rules changed"
    DAY_DATE = "day.date", "day's date changed"
    DAY_QUALIFICATION = "day.qualification", "qualification rule set"
    DAY_OPEN = "day.open", "day opened"
    DAY_CLOSE_REQUESTED = "day.close_requested", "day close asked for"
    DAY_CLOSED = "day.closed", "day closed"
    DAY_COUNT = "day.count", "table's chips counted"
    DAY_COUNT_RULING = "day.count_ruling", "count difference ruled"
    DAY_COUNT_WAIVED = "day.count_waived", "day's count waived"
    DAY_CARRIED_SHARED = "day.carried_shared", "carried pot shared at the close"
    PLAYER_REGISTER = "player.register", "player registered"
    PLAYER_IMPORT = "player.import", "players imported"
    PLAYER_ISSUE = "player.issue", "money issued"
    PLAYER_UPDATE = "player.update", "player changed"
    PLAYER_RENAME = "player.rename", "player's name corrected"
    PLAYER_WITHDRAW = "player.withdraw", "player withdrawn"
    PLAYER_REINSTATE = "player.reinstate", "player's withdrawal taken back"
    PLAYER_REQUALIFY = "player.requalify", "player let back in past a cut"
    PLAYER_REMOVE = "player.remove", "player registered by mistake removed"
    PLAYER_IMPORT_UNDO = "player.import_undo", "import undone"
    PLAYER_LINK_REISSUE = "player.link_reissue", "player's private link replaced"
    PLAYER_CHECK_IN = "player.check_in", "player checked in for a day"
    CHECKIN_WINDOW = "day.checkin_window", "day's check-in opened"
    SEAT_LATE_ARRIVAL = "seat.late_arrival", "late arrival seated"

    PLAYER_LOOK_ALIKE = "player.look_alike", "look-alike name confirmed as another person"
    PERSON_UPDATE = "person.update", "person's details changed"
    PERSON_MERGE = "person.merge", "duplicate people merged"
    EVENT_STARTING_MONEY = "event.starting_money", "event's starting money set"
    TABLE_CREATE = "table.create", "table created"
    TABLE_DEALERS = "table.dealers", "dealers assigned"
    TABLE_BALANCE = "table.balance", "tables balanced"
    DEALER_SHIFT_START = "dealer.shift_start", "dealer signed in at a table"
    DEALER_SHIFT_END = "dealer.shift_end", "dealer's shift at a table ended"
    DEALER_ROTA = "dealer.rota", "dealers' rota drawn"
    SEATING_DRAW = "seating.draw", "seating drawn"
    SEATING_APPLY = "seating.apply", "seating applied"
    SEAT_BUY_IN = "seat.buy_in", "buy-in"
    SEAT_REBUY = "seat.rebuy", "re-buy"
    SEAT_SIT_OUT = "seat.sit_out", "sat out"
    SEAT_COME_BACK = "seat.come_back", "came back"
    SEAT_LEAVE = "seat.leave", "left the table"
    SEAT_MOVE = "seat.move", "moved seat"
    HAND_START = "hand.start", "hand started"
    HAND_VOID = "hand.void", "hand voided"
    HAND_MISDEAL = "hand.misdeal", "misdeal declared"
    HAND_AWARD_WAITS = "hand.award_waits", "large pot waits for a second confirmation"
    HAND_AWARD_CONFIRM = "hand.award_confirm", "large pot confirmed by a second member of staff"
    DAY_AWARD_FROM = "day.award_from", "large-pot amount changed"
    FLOOR_CALL = "floor.call", "floor called"
    FLOOR_TAKE = "floor.take", "floor call taken"
    FLOOR_RULING = "floor.ruling", "ruling recorded"
    FLOOR_LIFT = "floor.lift", "penalty lifted"
    TOKEN_ISSUE = "token.issue", "device token issued"
    TOKEN_REVOKE = "token.revoke", "device token revoked"
    LOGIN_LOCKED_OUT = "login.locked_out", "login locked out"
    LOGIN_UNLOCK = "login.unlock", "login unlocked"
    INTEGRITY_RUN = "integrity.run", "integrity check run"
    STAFF_CREATE = "staff.create", "staff account created"
    STAFF_PASSWORD = "staff.password", "staff password reset"
    STAFF_DEACTIVATE = "staff.deactivate", "staff account switched off"
    STAFF_ACTIVATE = "staff.activate", "staff account switched on"
    ANNOUNCEMENT_POST = "announcement.post", "announcement posted"
    ANNOUNCEMENT_REMOVE = "announcement.remove", "announcement taken down"
    DAY_CLOCK = "day.clock", "day's break and end times set"
    SERIES_CREATE = "series.create", "series created"
    SERIES_CHANGE = "series.change", "series changed"
    EVENT_IMPORT = "event.import", "past event imported from a results file"
    NOTIFY_CONTACT = "notify.contact", "notification settings changed"
    NOTIFY_UNSUBSCRIBE = "notify.unsubscribe", "emails stopped by the unsubscribe link"
    FEED_SETTINGS = "feed.settings", "public feed's settings changed"
    FEED_ENTRY_REMOVE = "feed.remove", "public feed entry taken down"
    OTHER = "other", "other (recorded before the kinds were listed)"


def _subject(to: str) -> models.ForeignKey:  # type: ignore[type-arg]
    return models.ForeignKey(
        to, null=True, blank=True, on_delete=models.PROTECT, related_name="+", db_index=True
    )


class AuditEntry(models.Model):
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    device = models.CharField(max_length=200, blank=True, help_text="Device, IP and user agent")
    device_token = models.ForeignKey(
        "api.DeviceToken",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The tablet's device token the change came through, if any",
    )
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    # Without ``choices`` on the field: a new kind of change is a new member of ``Verb`` and no
    # migration (as Zulip keeps its event types); the services accept only ``Verb`` members.
    verb = models.CharField(max_length=60, help_text="What was done")
    # What it was done to: every reference that applies (a seat's entry names its table and
    # player too), and ``target`` in words as it read then.
    day = _subject("events.Day")
    table = _subject("tables.Table")
    hand = _subject("hands.Hand")
    seat = _subject("tables.Seat")
    player = _subject("players.Player")
    token = _subject("api.DeviceToken")
    target = models.CharField(max_length=120, blank=True, help_text="What it was done to")
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["event", "verb"], name="audit_event_verb")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.verb} {self.target}"

    @property
    def verb_label(self) -> str:
        """The kind of change in words ("event changed")."""
        return verb_label(self.verb)


def verb_label(value: str) -> str:
    """A stored verb in words; one no longer in ``Verb`` reads as itself."""
    try:
        return str(Verb(value).label)
    except ValueError:
        return value
