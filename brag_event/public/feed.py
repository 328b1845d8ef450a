"""The event's public feed for followers: a page, Atom and JSON Feed (brag_event/notify/feed.py
writes it; docs/notifications.md). Answered by version, as the standings are, so nginx keeps
one copy for everyone and Django renders each version once (core.conditional)."""

from __future__ import annotations

import json
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import feedgenerator
from django.views.decorators.gzip import gzip_page

from brag_event.core.conditional import versioned_answer
from brag_event.core.forms import takes
from brag_event.events.models import Event
from brag_event.events.zones import activate_for
from brag_event.notify.feed import feed_refresh, feed_settings, feed_shown, feed_version
from brag_event.notify.models import FeedEntry

from .views import POLL_SECONDS

REFRESH_SECONDS = 10  # the feed reads the floor's new records at most this often per event


def _fresh(event_id: int) -> str:
    if not Event.objects.filter(pk=event_id).exists():
        raise Http404("No such event")
    if cache.add(f"feed-refresh-{event_id}", 1, REFRESH_SECONDS):
        feed_refresh(event_id=event_id)
    return feed_version(event_id=event_id)


def _answer(request: HttpRequest, event_id: int, kind: str, content_type: str) -> HttpResponse:
    version = _fresh(event_id)  # first: what is rendered is at least this new
    render = {"page": _page, "atom": _atom, "json": _json}[kind]
    return versioned_answer(
        request,
        key=f"feed-{kind}-{event_id}",
        version=version,
        render=lambda: render(request, event_id),
        content_type=content_type,
        private=False,
    )


@gzip_page
@takes()
def feed_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The feed as a page, newest first, in the event's time zone."""
    return _answer(request, event_id, "page", "text/html; charset=utf-8")


@gzip_page
@takes()
def feed_atom(request: HttpRequest, event_id: int) -> HttpResponse:
    """The feed as Atom (RFC 4287), for feed readers."""
    return _answer(request, event_id, "atom", "application/atom+xml; charset=utf-8")


@gzip_page
@takes()
def feed_json(request: HttpRequest, event_id: int) -> HttpResponse:
    """The feed as JSON Feed 1.1."""
    return _answer(request, event_id, "json", "application/feed+json; charset=utf-8")


def _page(request: HttpRequest, event_id: int) -> bytes:
    event = get_object_or_404(Event, pk=event_id)
    activate_for(event)
    context: dict[str, Any] = {
        "event": event,
        "entries": feed_shown(event_id=event_id),
        "delay": feed_settings(event_id).delay_minutes,
        "poll_ms": POLL_SECONDS * 1000 * 6,
    }
    return render_to_string("public/feed.html", context, request=request).encode()


def _link(request: HttpRequest, name: str, event_id: int) -> str:
    return request.build_absolute_uri(reverse(name, args=[event_id]))


def _entry_id(request: HttpRequest, entry: FeedEntry) -> str:
    return f"{_link(request, 'public:feed', entry.event_id)}#entry-{entry.pk}"


def _atom(request: HttpRequest, event_id: int) -> bytes:
    event = get_object_or_404(Event, pk=event_id)
    entries = feed_shown(event_id=event_id)
    atom = feedgenerator.Atom1Feed(
        title=f"{event.name}: as it happens",
        link=_link(request, "public:feed", event_id),
        description=f"{event.name}, from the floor",
        feed_url=_link(request, "public:feed_atom", event_id),
        language="en",
    )
    for entry in entries:
        atom.add_item(
            title=entry.text,
            link=_entry_id(request, entry),
            description=entry.text,
            unique_id=_entry_id(request, entry),
            pubdate=entry.shown_from,
            updateddate=entry.shown_from,
        )
    return atom.writeString("utf-8").encode()


def _json(request: HttpRequest, event_id: int) -> bytes:
    event = get_object_or_404(Event, pk=event_id)
    document = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": f"{event.name}: as it happens",
        "home_page_url": _link(request, "public:feed", event_id),
        "feed_url": _link(request, "public:feed_json", event_id),
        "language": "en",
        "items": [
            {
                "id": _entry_id(request, e),
                "url": _entry_id(request, e),
                "content_text": e.text,
                "date_published": e.shown_from.isoformat(),
                "tags": [e.kind],
            }
            for e in feed_shown(event_id=event_id)
        ],
    }
    return json.dumps(document, ensure_ascii=False).encode()
