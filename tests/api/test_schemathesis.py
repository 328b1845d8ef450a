"""Schemathesis against the live OpenAPI schema, in-process over WSGI: no request may make the
server answer 500, and every answer must be what the schema documents — a documented status
code, its content type and a body that validates against its response schema (the one error
shape for every 4xx and 5xx).

Bounded for CI: a fixed number of examples per operation, derandomized, for two callers (an
organiser's tablet with a device token, and an anonymous browser holding a CSRF cookie). Each
request runs in a savepoint that is rolled back afterwards, so every one of them meets the same
populated world (an event, a table of three with a live hand) whatever the requests before it
did. Generated ids mostly miss, so each case is sent once more with the path's ids, and the
body's references (``expected_seq``, ``player``, ``user``), replaced by ones that exist.

The other schemathesis checks (whether invalid data is refused, and the like) are run too, and
their failures are printed as a summary at the end of the module (``-s`` shows it), without
failing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from brag_event.api.models import DeviceToken, token_hash
from brag_event.hands.services import hand_start
from brag_event.players.services import player_register
from tests.factories import act

from .conftest import Api

EXAMPLES = 3
# Enforced on every answer: no 500, and the answer is the documented one.
CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

# Fuzzing every operation as every role takes tens of seconds: not in make test-fast.
pytestmark = pytest.mark.slow

# Loaded when the module is imported (the schema view needs no database). A lazy
# ``schemathesis.pytest.from_fixture`` schema would be tidier, but schemathesis 4.32 sets
# ``Function._nodeid``, which pytest 9.2 no longer has.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
# Bounded: generated examples only (EXAMPLES an operation and caller). Schemathesis' coverage
# phase (every boundary and negative variant of every field, ~2,700 requests here) is left out;
# hostile bodies have their own tests (test_hostile_bodies.py, tests/core/test_hostile_input.py).
schema.config.phases.coverage.enabled = False

OTHER_FAILURES: Counter[str] = Counter()
EXAMPLE: dict[str, str] = {}
SENT: Counter[str] = Counter()


@dataclass
class Caller:
    """Who sends the requests, and references that exist in the populated world."""

    role: str
    headers: dict[str, str]
    cookies: dict[str, str]
    path_ids: dict[str, int]
    body_refs: dict[str, int]


@pytest.fixture(scope="module", autouse=True)
def summary() -> Iterator[None]:
    yield
    print(f"\nschemathesis: {sum(SENT.values())} requests, by status {dict(sorted(SENT.items()))}")
    if OTHER_FAILURES:
        print("other checks failing (not enforced):")
        for what, count in sorted(OTHER_FAILURES.items()):
            print(f"  {count:4d} x {what}\n         e.g. {EXAMPLE[what]}")


@contextmanager
def same_connection() -> Iterator[None]:
    """Django's WSGI handler closes "old" connections when a request starts and when it ends,
    which would close the test's transaction; Django's test client turns that off around each
    request in the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def fast_passwords(settings: Any) -> None:
    """Requested before ``api``, whose users get passwords."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(params=["organiser", "anonymous"])
def caller(request: Any, fast_passwords: None, api: Api) -> Caller:
    w = api.world
    hand = hand_start(table=w.table, by=None)
    hand, _ = act(hand, seat=2, action="look")
    hand, _ = act(hand, seat=2, action="bet", amount=5)
    newcomer = player_register(event=w.event, name="Dan", starting_money=1000, by=None)
    # The WSGI transport hands the body over as sent; an HTTP client would undo a gzip (the
    # standings are compressed for nginx's copy: tests/deploy/test_edge_cache.py), this does not.
    headers: dict[str, str] = {"Accept-Encoding": "identity"}
    cookies: dict[str, str] = {}
    if request.param == "organiser":
        key = DeviceToken.new_key()
        DeviceToken.objects.create(
            user=api.users["organiser"], name="fuzzer", key_hash=token_hash(key), prefix=key[:6]
        )
        headers["Authorization"] = f"Token {key}"
    else:
        # A browser that fetched the CSRF cookie first, so the login view is reached too.
        csrf = api.client("anonymous").get("/api/v1/auth/csrf/").cookies["csrftoken"].value
        headers["X-CSRFToken"] = csrf
        cookies["csrftoken"] = csrf
    path_ids = {
        "event_id": w.event.pk,
        "day_id": w.day.pk,
        "table_id": w.table.pk,
        "hand_id": hand.pk,
        "seat_id": w.seat(1).pk,
        "token_id": DeviceToken.objects.get(user=api.users["dealer"]).pk,
    }
    body_refs = {
        "expected_seq": hand.next_seq,
        "player": newcomer.pk,
        "user": api.users["dealer"].pk,
    }
    return Caller(request.param, headers, cookies, path_ids, body_refs)


def send(case: Any, caller: Caller) -> None:
    """Send the case in a savepoint that is rolled back; a 500 or an answer that is not the
    documented one fails, other failures are counted."""
    cache.clear()  # the login throttle would soon answer every login with 429
    # A keyed write owns its (durable) transaction, which cannot run inside this savepoint:
    # those are tested with real commits (test_commit_path.py, test_contract_client.py).
    if case.headers:
        case.headers.pop("Idempotency-Key", None)
    with transaction.atomic(), same_connection():
        response = case.call(headers=caller.headers, cookies=caller.cookies)
        SENT[str(response.status_code)] += 1
        try:
            case.validate_response(response, headers=caller.headers, excluded_checks=CONFORMANCE)
        except FailureGroup as group:
            for failure in group.exceptions:
                title = getattr(failure, "title", type(failure).__name__)
                what = f"{case.operation.label} ({caller.role}): {title}"
                OTHER_FAILURES[what] += 1
                EXAMPLE.setdefault(what, f"{case.as_curl_command()} -> {response.status_code}")
        transaction.set_rollback(True)
    case.validate_response(response, checks=CONFORMANCE, headers=caller.headers)


def with_real_references(case: Any, caller: Caller) -> bool:
    """Point the case at things that exist; ``False`` if it refers to nothing."""
    params = case.path_parameters or {}
    real = {k: caller.path_ids[k] for k in params if k in caller.path_ids}
    body = case.body if isinstance(case.body, dict) else {}
    refs = {k: caller.body_refs[k] for k in body if k in caller.body_refs}
    if not real and not refs:
        return False
    if real:
        case.path_parameters = {**params, **real}
    if refs:
        case.body = {**body, **refs}
    return True


@hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)
@schema.parametrize()
@pytest.mark.django_db
def test_every_answer_is_the_documented_one_and_none_is_a_500(case: Any, caller: Caller) -> None:
    send(case, caller)
    if with_real_references(case, caller):
        send(case, caller)
