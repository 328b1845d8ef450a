"""What a player asked to hear, the outbox of what they are told, and the public feed."""

from __future__ import annotations

import secrets

from django.db import models

from brag_event.events.models import Event
from brag_event.players.models import Player


class Kind(models.TextChoices):
    """What a player may choose to hear; the words are the ones their settings page shows."""

    SEAT = "seat", "My seat for a day, once the draw is made"
    MOVE = "move", "A move to another table"
    RESULT = "result", "Qualified or out, after each day's close"
    # Sent when the organiser opens (or moves) a day's check-in window (players.checkin).
    CHECKIN = "checkin", "Check-in is open"
    ANNOUNCEMENT = "announcement", "Announcements the organisers send to players"


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Contact(models.Model):
    """How to reach one player and what they want to hear. An email address and a Web Push
    subscription are each optional; ``kinds`` applies to both."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="contact")
    email = models.EmailField(blank=True)
    kinds = models.JSONField(default=list)
    push_endpoint = models.URLField(max_length=1000, blank=True)
    push_p256dh = models.CharField(max_length=200, blank=True)
    push_auth = models.CharField(max_length=100, blank=True)
    # The one-click unsubscribe link's key: a link in an email stops that address's emails.
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=new_token)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"contact of {self.player}"

    def hears(self, kind: str) -> bool:
        return kind in self.kinds


class Notice(models.Model):
    """The outbox: one message to one player on one channel about one fact at one version.
    Written in the transaction that changed the fact; the unique key means a fact at a version
    is told once, and a new version is written only when what the player is told changed."""

    class Channel(models.TextChoices):
        EMAIL = "email", "email"
        PUSH = "push", "Web Push"

    class Status(models.TextChoices):
        PENDING = "pending", "waiting"
        SENDING = "sending", "being sent"
        SENT = "sent", "sent"
        FAILED = "failed", "given up"
        DROPPED = "dropped", "not sent (unsubscribed)"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notices")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    fact = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    subject = models.CharField(max_length=200)
    body = models.TextField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    next_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "channel", "fact", "version"], name="notice_once"
            )
        ]
        indexes = [models.Index(fields=["status", "next_at"], name="notice_due")]

    def __str__(self) -> str:
        return f"{self.channel} to {self.player_id}: {self.fact} v{self.version}"


class FeedSettings(models.Model):
    """An event's public feed: how long entries wait during play, and from what a pot is big."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="feed_settings")
    delay_minutes = models.PositiveIntegerField(default=10)
    big_pot = models.PositiveIntegerField(default=0)  # 0: no big pots in the feed
    # How far the feed has read the floor's records (notify.feed.feed_refresh).
    cursor = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"feed settings of {self.event}"


class FeedEntry(models.Model):
    """One line of the public feed, written from what the floor recorded (``key`` names the
    record it comes from, so it is written once). ``shown_from``: when it may be shown (its
    moment plus the delay, during play). An organiser may take it down."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="feed_entries")
    key = models.CharField(max_length=64)
    kind = models.CharField(max_length=16)
    text = models.CharField(max_length=300)
    at = models.DateTimeField()
    shown_from = models.DateTimeField()
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [models.UniqueConstraint(fields=["event", "key"], name="feed_entry_once")]
        indexes = [models.Index(fields=["event", "shown_from"], name="feed_shown")]

    def __str__(self) -> str:
        return self.text
