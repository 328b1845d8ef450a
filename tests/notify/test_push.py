"""Web Push to a local push service that decrypts what it receives (RFC 8291, aes128gcm) with
the subscription's own keys, and checks the VAPID header names the server's key (RFC 8292)."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import override_settings

from brag_event.notify.models import Kind, Notice
from brag_event.notify.services import contact_update, push_subscribe
from brag_event.notify.vapid import b64url, vapid_pair
from brag_event.tables.models import Seat
from brag_event.tables.seating import seating_apply, seating_draw

from .test_emails import make_players

pytestmark = pytest.mark.django_db


class PushService:
    """A push service on 127.0.0.1: keeps each request's headers and body; answers ``status``."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def service() -> Iterator[PushService]:
    push = PushService()
    try:
        yield push
    finally:
        push.server.shutdown()


def test_the_seat_arrives_by_web_push_and_decrypts_with_the_subscriptions_keys(
    service: PushService, commits: Any
) -> None:
    private, public = vapid_pair()
    browser = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    p256dh = browser.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    _event, day, players = make_players(3)
    with override_settings(
        BRAG_VAPID_PRIVATE_KEY=private, BRAG_VAPID_PUBLIC_KEY=public, BRAG_PUSH_ALLOW_HTTP=True
    ):
        p = players[0]
        contact_update(player=p, email="", kinds=[Kind.SEAT], by=None)
        push_subscribe(
            player=p, endpoint=service.url, p256dh=b64url(p256dh), auth=b64url(auth), by=None
        )
        draw = seating_draw(day=day, seed="push", by=None)
        with commits(execute=True):
            seating_apply(draw=draw, by=None)
    assert len(service.received) == 1  # the other players chose email (no push)
    headers, body = service.received[0]
    assert headers["content-encoding"] == "aes128gcm"
    assert f"k={public}" in headers["authorization"]
    words = json.loads(http_ece.decrypt(body, private_key=browser, auth_secret=auth))
    seat = Seat.objects.select_related("table").get(player=p, left_at__isnull=True)
    assert words["body"].endswith(f"your seat is table {seat.table.number}, seat {seat.number}.")
    assert words["url"].startswith("http") and "/p/" in words["url"]
    assert Notice.objects.get(player=p).status == Notice.Status.SENT


def test_a_subscription_the_service_has_forgotten_is_dropped(
    service: PushService, commits: Any
) -> None:
    private, public = vapid_pair()
    browser = ec.generate_private_key(ec.SECP256R1())
    p256dh = browser.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    service.status = 410
    _event, day, (p,) = make_players(1)
    with override_settings(
        BRAG_VAPID_PRIVATE_KEY=private, BRAG_VAPID_PUBLIC_KEY=public, BRAG_PUSH_ALLOW_HTTP=True
    ):
        contact_update(player=p, email="", kinds=[Kind.SEAT], by=None)
        push_subscribe(
            player=p,
            endpoint=service.url,
            p256dh=b64url(p256dh),
            auth=base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("="),
            by=None,
        )
        draw = seating_draw(day=day, seed="gone", by=None)
        with commits(execute=True):
            seating_apply(draw=draw, by=None)
    assert len(service.received) == 1
    assert Notice.objects.get(player=p).status == Notice.Status.DROPPED
    p.contact.refresh_from_db()
    assert p.contact.push_endpoint == ""
