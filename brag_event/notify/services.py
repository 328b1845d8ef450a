"""Players' notifications: what a player asked to hear, the outbox written with each change,
and its delivery (email through the SMTP server of the environment, Web Push by VAPID).

A notice is a *fact* about a player (their seat on a day, their result after a close) at a
*version*. The change that makes the fact writes the notice in its own transaction
(``notice_write``), only if the words differ from the fact's latest notice; the row's unique
key (player, channel, fact, version) means it is told once. Delivery claims the row, sends,
and marks it sent; a worker that dies mid-send leaves the claim to lapse, and the outbox's
sweep (``notices_due``) sends it again — so the outbox, not the job queue, is what is owed."""

from __future__ import annotations

import datetime
import functools
import json
import logging
from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import Count, Max, Q
from django.urls import reverse
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.players.links import player_path
from brag_event.players.models import Player

from .models import Contact, Kind, Notice

log = logging.getLogger("brag_event.notify")

# A claim older than this is a sender that died: the notice is due again.
LEASE = datetime.timedelta(seconds=settings.BRAG_NOTIFY_LEASE_SECONDS)
# Tries before a notice is given up (the dashboard lists it): 30 s, 1, 2, 4, 8 min … apart.
MAX_ATTEMPTS = 8
FIRST_WAIT = 30


def smtp_configured() -> bool:
    """Whether emails can leave: a mail server is set (``EMAIL_HOST``), or another backend."""
    backend = settings.EMAIL_BACKEND
    return bool(settings.EMAIL_HOST) or not backend.endswith("smtp.EmailBackend")


def push_configured() -> bool:
    return bool(settings.BRAG_VAPID_PRIVATE_KEY and settings.BRAG_VAPID_PUBLIC_KEY)


def retry_wait(attempts: int) -> datetime.timedelta:
    """How long after its ``attempts``-th failed try a notice is tried again."""
    return datetime.timedelta(seconds=FIRST_WAIT * 2 ** max(0, attempts - 1))


# What a player chose ------------------------------------------------------------------------


def contact_of(player: Player) -> Contact | None:
    return Contact.objects.filter(player=player).first()


@service_transaction
def contact_update(
    *, player: Player, email: str, kinds: Iterable[str], by: Actor | None
) -> Contact:
    """Keep the player's email address (blank: no emails) and what they want to hear."""
    chosen = sorted(set(kinds))
    unknown = [k for k in chosen if k not in Kind.values]
    if unknown:
        raise ServiceError("unknown_kind", "That is not something a player can choose to hear.")
    contact, _ = Contact.objects.select_for_update().get_or_create(player=player)
    before = {"email": bool(contact.email), "kinds": list(contact.kinds)}
    contact.email = email.strip()
    contact.kinds = chosen
    contact.save()
    audit_record(
        by=by,
        verb=Verb.NOTIFY_CONTACT,
        subject=player,
        # Whether an address is kept, never the address itself: the audit log is the staff's.
        data={"before": before, "after": {"email": bool(contact.email), "kinds": chosen}},
        event_id=player.event_id,
    )
    return contact


@service_transaction
def push_subscribe(
    *, player: Player, endpoint: str, p256dh: str, auth: str, by: Actor | None
) -> Contact:
    """Keep the browser's Web Push subscription (blank endpoint: stop Web Push)."""
    plain = endpoint and not endpoint.startswith("https://")
    if plain and not (settings.DEBUG or getattr(settings, "BRAG_PUSH_ALLOW_HTTP", False)):
        raise ServiceError("invalid_push", "This browser's push address cannot be used.")
    contact, _ = Contact.objects.select_for_update().get_or_create(player=player)
    contact.push_endpoint, contact.push_p256dh, contact.push_auth = endpoint, p256dh, auth
    contact.save()
    audit_record(
        by=by,
        verb=Verb.NOTIFY_CONTACT,
        subject=player,
        data={"push": bool(endpoint)},
        event_id=player.event_id,
    )
    return contact


@service_transaction
def contact_unsubscribe(*, token: str, by: Actor | None) -> Contact:
    """The one-click link in every email: that address gets no more emails (the player may give
    one again on their page). Pending emails are not sent."""
    contact = Contact.objects.select_for_update().filter(unsubscribe_token=token).first()
    if contact is None:
        raise ServiceError("unknown_link", "This unsubscribe link is not one of ours.", status=404)
    if contact.email:
        contact.email = ""
        contact.save(update_fields=["email", "updated_at"])
        Notice.objects.filter(
            player_id=contact.player_id,
            channel=Notice.Channel.EMAIL,
            status__in=[Notice.Status.PENDING, Notice.Status.SENDING],
        ).update(status=Notice.Status.DROPPED)
        audit_record(
            by=by,
            verb=Verb.NOTIFY_UNSUBSCRIBE,
            subject=contact.player,
            event_id=contact.player.event_id,
        )
    return contact


# The outbox ---------------------------------------------------------------------------------


def notice_write(*, player: Player, kind: str, fact: str, subject: str, body: str) -> list[Notice]:
    """Write the notices of a change to ``fact`` on each channel the player hears ``kind`` by,
    in the caller's transaction; a fact told in the same words before is not told again. Each
    is sent once the transaction commits."""
    contact = contact_of(player)
    if contact is None or not contact.hears(kind):
        return []
    channels = []
    if contact.email:
        channels.append(Notice.Channel.EMAIL)
    if contact.push_endpoint:
        channels.append(Notice.Channel.PUSH)
    written = []
    for channel in channels:
        told = Notice.objects.filter(player=player, channel=channel, fact=fact)
        latest = told.order_by("-version").values("version", "subject", "body").first()
        if latest is not None and (latest["subject"], latest["body"]) == (subject, body):
            continue
        notice = Notice.objects.create(
            player=player,
            channel=channel,
            kind=kind,
            fact=fact,
            version=(latest["version"] if latest else 0) + 1,
            subject=subject,
            body=body,
        )
        written.append(notice)
        transaction.on_commit(functools.partial(_queue, notice.pk))
    return written


def _queue(notice_id: int) -> None:
    from .tasks import notice_send_task  # the task module imports these services

    try:
        notice_send_task.delay(notice_id)
    except Exception as err:  # the queue unreachable: the outbox's sweep sends it later
        log.warning("notice %s could not reach the job queue: %s", notice_id, err)


def notices_due(*, limit: int = 500) -> list[int]:
    """The notices owed now: waiting and due, or claimed by a sender that died (its claim
    lapsed). Emails wait while no mail server is set, Web Push while no keys are."""
    now = timezone.now()
    waiting = Q(status=Notice.Status.PENDING) & (Q(next_at__isnull=True) | Q(next_at__lte=now))
    lapsed = Q(status=Notice.Status.SENDING, claimed_at__lt=now - LEASE)
    due = Notice.objects.filter(waiting | lapsed)
    if not smtp_configured():
        due = due.exclude(channel=Notice.Channel.EMAIL)
    if not push_configured():
        due = due.exclude(channel=Notice.Channel.PUSH)
    return list(due.order_by("pk").values_list("pk", flat=True)[:limit])


def _claim(notice_id: int) -> Notice | None:
    """Mark the notice as being sent by this sender, if it is owed and nobody else is sending
    it; ``None`` otherwise (sent already, given up, not due, or its channel not set up)."""
    with transaction.atomic():
        notice = (
            Notice.objects.select_for_update(skip_locked=True)
            .select_related("player__event")
            .filter(pk=notice_id)
            .first()
        )
        if notice is None:
            return None
        now = timezone.now()
        if notice.status == Notice.Status.SENDING:
            if notice.claimed_at is not None and notice.claimed_at >= now - LEASE:
                return None
        elif notice.status != Notice.Status.PENDING or (
            notice.next_at is not None and notice.next_at > now
        ):
            return None
        ready = smtp_configured() if notice.channel == Notice.Channel.EMAIL else push_configured()
        if not ready:
            return None
        contact = contact_of(notice.player)
        still = contact is not None and contact.hears(notice.kind)
        if still and contact is not None:
            still = bool(
                contact.email if notice.channel == Notice.Channel.EMAIL else contact.push_endpoint
            )
        if not still:
            notice.status = Notice.Status.DROPPED
            notice.save(update_fields=["status"])
            return None
        notice.status = Notice.Status.SENDING
        notice.claimed_at = now
        notice.attempts += 1
        notice.save(update_fields=["status", "claimed_at", "attempts"])
        return notice


def notice_deliver(*, notice_id: int) -> str:
    """Send one notice if it is owed (safe to call twice, or from two workers at once): the
    status it is left in. A failed send is tried again later, further apart each time."""
    notice = _claim(notice_id)
    if notice is None:
        return Notice.objects.filter(pk=notice_id).values_list("status", flat=True).first() or ""
    contact = Contact.objects.get(player_id=notice.player_id)
    try:
        if notice.channel == Notice.Channel.EMAIL:
            _send_email(notice, contact)
        else:
            _send_push(notice, contact)
    except PushGone:
        Contact.objects.filter(pk=contact.pk).update(push_endpoint="", push_p256dh="", push_auth="")
        Notice.objects.filter(pk=notice.pk).update(
            status=Notice.Status.DROPPED, error="The browser no longer takes these messages."
        )
        return Notice.Status.DROPPED
    except Exception as err:  # any failure to send: tried again later, the reason kept
        gave_up = notice.attempts >= MAX_ATTEMPTS
        Notice.objects.filter(pk=notice.pk).update(
            status=Notice.Status.FAILED if gave_up else Notice.Status.PENDING,
            next_at=timezone.now() + retry_wait(notice.attempts),
            error=f"{type(err).__name__}: {err}"[:300],
        )
        raise
    Notice.objects.filter(pk=notice.pk).update(
        status=Notice.Status.SENT, sent_at=timezone.now(), error=""
    )
    return Notice.Status.SENT


def base_url() -> str:
    return settings.BRAG_PUBLIC_BASE_URL or "http://localhost:8000"


def page_url(player: Player) -> str:
    return base_url() + player_path(player)


def unsubscribe_url(contact: Contact) -> str:
    return base_url() + reverse("public:unsubscribe", args=[contact.unsubscribe_token])


def _send_email(notice: Notice, contact: Contact) -> None:
    stop = unsubscribe_url(contact)
    text = (
        f"{notice.body}\n\nYour page: {page_url(notice.player)}\n\n"
        f"You asked for these emails on your page. To stop them: {stop}\n"
    )
    message = EmailMessage(
        subject=notice.subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[contact.email],
        headers={
            # RFC 8058: one click from the mail program, no page to visit.
            "List-Unsubscribe": f"<{stop}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # The same for every try of this notice: a mail program may drop a second copy.
            "Message-ID": f"<notice-{notice.pk}-{notice.version}@brag-event>",
        },
        connection=get_connection(fail_silently=False),
    )
    message.send()


class PushGone(Exception):
    """The push service says the subscription no longer exists (404 or 410)."""


def _send_push(notice: Notice, contact: Contact) -> None:
    from pywebpush import WebPushException, webpush

    data = {"title": notice.subject, "body": notice.body, "url": page_url(notice.player)}
    try:
        webpush(
            subscription_info={
                "endpoint": contact.push_endpoint,
                "keys": {"p256dh": contact.push_p256dh, "auth": contact.push_auth},
            },
            data=json.dumps(data),
            vapid_private_key=settings.BRAG_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.BRAG_VAPID_SUBJECT},
            ttl=6 * 3600,
            timeout=10,
        )
    except WebPushException as err:
        status = getattr(err.response, "status_code", None)
        if status in (404, 410):
            raise PushGone() from err
        raise


# The changes that are told ----------------------------------------------------------------


def _event_day(day: Any) -> str:
    return f"{day.event.name}, day {day.number}"


def notice_seat(*, seat: Any, moved: bool) -> list[Notice]:
    """A player's seat for a day: drawn (``moved`` false) or moved to by the floor. The words
    are those of their page (table and seat)."""
    table = seat.table
    day = table.day
    where = f"table {table.number}, seat {seat.number}"
    if moved:
        subject = f"{day.event.name}: you have moved to {where}"
        body = f"{_event_day(day)}: the floor moved you to {where}. Your chips go with you."
    else:
        subject = f"{day.event.name}, day {day.number}: {where}"
        body = f"{_event_day(day)}: your seat is {where}."
    return notice_write(
        player=seat.player,
        kind=Kind.MOVE if moved else Kind.SEAT,
        fact=f"seat-day-{day.pk}",
        subject=subject,
        body=body,
    )


def notice_result(
    *, player: Player, day: Any, rank: int, qualified: bool, following: Any
) -> list[Notice]:
    """A player's result after a day's close: qualified for the next day, or out, with their
    place in the day's standings (the public standings show both)."""
    place = f"ranked {rank}" if rank else "not ranked"
    if following is not None and qualified:
        subject = f"{day.event.name}: you qualified for day {following.number}"
        body = (
            f"{_event_day(day)} is closed: you are {place} "
            f"and qualified for day {following.number}."
        )
    elif following is not None:
        subject = f"{day.event.name}: day {day.number} is closed"
        body = (
            f"{_event_day(day)} is closed: you are {place} "
            f"and did not qualify for day {following.number}."
        )
    else:
        subject = f"{day.event.name}: the final results"
        body = f"{_event_day(day)} is closed: you finished {place}."
    return notice_write(
        player=player, kind=Kind.RESULT, fact=f"result-day-{day.pk}", subject=subject, body=body
    )


def notice_checkin(*, day: Any, player_ids: Iterable[int], opens: str, closes: str) -> int:
    """Check-in for a day is open (or its times moved): a notice to each player of the day's
    field who asked to hear it, with the window's times as their page shows them."""
    written = 0
    for player in Player.objects.filter(pk__in=list(player_ids), contact__isnull=False):
        written += len(
            notice_write(
                player=player,
                kind=Kind.CHECKIN,
                fact=f"checkin-day-{day.pk}",
                subject=f"{day.event.name}: check in for day {day.number}",
                body=(f"{_event_day(day)}: check in from your page between {opens} and {closes}."),
            )
        )
    return written


def outbox_summary(*, event_id: int) -> dict[str, Any]:
    """For the organisers' dashboard and hall page: how many messages wait, were sent, or were
    given up, and whether each channel can send at all."""
    rows = Notice.objects.filter(player__event_id=event_id)
    counts: Counter[tuple[str, str]] = Counter()
    for row in rows.values("status", "channel").annotate(n=Count("pk")):
        counts[(row["status"], row["channel"])] = row["n"]

    def of(*statuses: str) -> int:
        return sum(n for (status, _channel), n in counts.items() if status in statuses)

    return {
        "waiting": of(Notice.Status.PENDING, Notice.Status.SENDING),
        "waiting_email": counts[(Notice.Status.PENDING, Notice.Channel.EMAIL)],
        "sent": of(Notice.Status.SENT),
        "failed": of(Notice.Status.FAILED),
        "last_sent": rows.aggregate(last=Max("sent_at"))["last"],
        "smtp": smtp_configured(),
        "push": push_configured(),
        "contacts": Contact.objects.filter(player__event_id=event_id)
        .exclude(email="", push_endpoint="")
        .count(),
    }


@service_transaction
def announcement_tell(*, event_id: int, announcement_id: int, text: str) -> int:
    """An announcement the organiser marked for the players: a notice to each player of the
    event who asked for announcements (the hall's screen and their page show it too); how
    many were written."""
    written = 0
    for player in Player.objects.filter(event_id=event_id, contact__isnull=False):
        written += len(
            notice_write(
                player=player,
                kind=Kind.ANNOUNCEMENT,
                fact=f"announcement-{announcement_id}",
                subject=f"{player.event.name}: {text}"[:200],
                body=text,
            )
        )
    return written
