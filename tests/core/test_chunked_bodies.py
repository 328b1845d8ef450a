"""A body sent in chunks (``Transfer-Encoding: chunked``, no ``Content-Length``) is refused with
``411 length_required`` and a sentence, before any view reads it as empty (issue 29: a chunked
write was answered with a misleading "field missing"). Through gunicorn for real, as a client
talking to it directly sends it; and through Django's test client for the console's pages."""

from __future__ import annotations

import http.client
import json
import os
import socket
import time
from pathlib import Path

import pytest
from django.test import Client

from brag_event.core.middleware import LENGTH_REQUIRED
from tests.processes import gunicorn, stop


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow  # gunicorn in a process of its own
def test_a_chunked_api_body_through_gunicorn_gets_411_in_the_error_shape(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAG_", "DJANGO_"))}
    # Refused before anything reads the database: none is needed.
    env |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'none.sqlite3'}", "DJANGO_DEBUG": "false"}
    env |= {"DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECRET_KEY": "x" * 50}
    with (tmp_path / "gunicorn.log").open("wb") as out:
        server = gunicorn(
            ["brag_event.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
            env,
            out,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
                    time.sleep(0.2)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            body = json.dumps({"username": "dealer", "password": "pw"}).encode()
            conn.request(
                "POST",
                "/api/v1/auth/login/",
                body=iter([body[:10], body[10:]]),
                headers={"Content-Type": "application/json"},
                encode_chunked=True,
            )
            answer = conn.getresponse()
            data = json.loads(answer.read())
            conn.close()
        finally:
            stop(server)
    assert answer.status == 411, data
    assert data == {"error": {"code": "length_required", "message": LENGTH_REQUIRED, "details": {}}}


@pytest.mark.django_db
def test_a_chunked_form_gets_411_with_a_sentence(client: Client) -> None:
    answer = client.post(
        "/organiser/login/",
        data=b"username=a&password=b",
        content_type="application/x-www-form-urlencoded",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
    )
    assert answer.status_code == 411
    assert answer.content.decode() == LENGTH_REQUIRED


@pytest.mark.django_db
def test_a_body_with_its_length_is_read_as_always(client: Client) -> None:
    answer = client.post(
        "/api/v1/auth/login/", {"username": "a", "password": "b"}, content_type="application/json"
    )
    assert answer.status_code == 401, answer.content  # read, refused on its merits
