"""The tablet's action path is hand-written SQL (``core.sql``, ``hands.statements``): these
tests hold it to the same rules as the ORM code it replaces, and keep its statement count."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from brag_event.api import roles
from brag_event.api.auth import _token_with_user
from brag_event.api.errors import exception_handler
from brag_event.api.models import DeviceToken, token_hash
from brag_event.events.models import Day
from brag_event.hands import statements
from brag_event.hands.models import Hand
from brag_event.tables.models import Table
from brag_event.tables.services import table_create

from .conftest import Api, start_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(shared_api: Api) -> Api:
    """The module's world, built once and rolled back after each test (tests/api/conftest.py)."""
    return shared_api


def test_table_access_in_sql_agrees_with_the_queryset_for_every_role(api: Api) -> None:
    w = api.world
    closed = w.event.days.get(number=2)
    other = table_create(day=w.day, by=None)  # nobody is assigned to it
    # A table of a day that was open and is closed now (the day's life is not under test).
    Day.objects.filter(pk=closed.pk).update(status=Day.Status.OPEN)
    old = table_create(day=closed, by=None)
    old.dealers.add(api.users["dealer"])
    Day.objects.filter(pk=closed.pk).update(status=Day.Status.CLOSED)
    superuser = User.objects.create_superuser("root", password="x")
    users = [*api.users.values(), superuser]
    tables = [w.table, other, old]
    checked = 0
    for user in users:
        roles.role_of(user)  # the role, as the ORM decides it
        access = roles.TableAccess(user)
        expected = set(access.tables().values_list("pk", flat=True))
        for table in tables:
            found = statements.lock_table(table.pk, access) is not None
            assert found == (table.pk in expected), (user.username, table.pk)
            checked += 1
    assert checked == len(users) * len(tables)
    dealer = roles.TableAccess(api.users["dealer"])
    assert set(dealer.tables().values_list("pk", flat=True)) == {w.table.pk}


@pytest.mark.parametrize("who", ["organiser", "supervisor", "dealer", "player", "nobody", "root"])
def test_the_token_query_gives_the_same_role_as_the_groups(api: Api, who: str) -> None:
    if who == "root":
        user = User.objects.create_superuser("root", password="x")
    elif who == "nobody":
        user = User.objects.create_user("nobody", password="x")
    else:
        user = api.users[who]
    if who == "organiser":  # more than one group: the highest wins
        user.groups.add(Group.objects.get_or_create(name="dealer")[0])
    key = DeviceToken.new_key()
    DeviceToken.objects.create(user=user, name="t", key_hash=token_hash(key), prefix=key[:6])
    token = _token_with_user(token_hash(key))
    assert token is not None and token.user.pk == user.pk
    fresh = User.objects.get(pk=user.pk)
    assert roles.role_of(token.user) == roles.role_of(fresh)
    with CaptureQueriesContext(connection) as queries:
        roles.role_of(token.user)
        hasattr(token.user, "player")  # known from the same query: no look-up
    assert len(queries) == 0 or who == "player"


def _same_as_the_orms(built: Any, model: type[Any]) -> int:
    """Every concrete field of an instance built by hand-written SQL equals the ORM's, with the
    same type, and datetimes with the same zone; returns how many datetimes were compared."""
    loaded = model._default_manager.get(pk=built.pk)
    datetimes = 0
    for field in model._meta.concrete_fields:
        mine, theirs = getattr(built, field.attname), getattr(loaded, field.attname)
        assert mine == theirs, (model.__name__, field.name)
        assert type(mine) is type(theirs), (model.__name__, field.name)
        if isinstance(theirs, datetime):
            assert mine.tzinfo is theirs.tzinfo, (model.__name__, field.name)
            datetimes += 1
    return datetimes


def test_hand_written_reads_build_the_same_instances_as_the_orm(api: Api) -> None:
    """Timestamps included: the hand-written reads hydrate them through the ORM's converters."""
    dealer = api.users["dealer"]
    stamp = timezone.now() - timedelta(days=3, microseconds=123457)
    User.objects.filter(pk=dealer.pk).update(last_login=stamp)
    key = DeviceToken.new_key()
    DeviceToken.objects.create(user=dealer, name="t", key_hash=token_hash(key), prefix=key[:6])
    DeviceToken.objects.filter(key_hash=token_hash(key)).update(last_used_at=stamp)
    hand_id = start_hand(api)["id"]
    with transaction.atomic():
        token = _token_with_user(token_hash(key))
        locked = statements.lock_hand(hand_id, None)
    assert token is not None and locked is not None
    hand = locked[0]
    assert token.user.last_login == stamp and token.last_used_at == stamp
    compared = sum(
        _same_as_the_orms(built, model)
        for built, model in (
            (token, DeviceToken),
            (token.user, User),
            (hand, Hand),
            (hand.table, Table),
            (hand.table.day, Day),
        )
    )
    assert compared >= 5  # token created/used, user joined/last login, hand started


def test_a_revoked_token_is_refused_by_the_hand_written_lookup(api: Api) -> None:
    token = DeviceToken.objects.filter(user=api.users["dealer"]).get()
    token.revoked_at = token.created_at
    token.save()
    response = api.client("dealer").get(f"/api/v1/tables/{api.world.table.pk}/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_an_action_costs_a_fixed_small_number_of_statements(api: Api) -> None:
    dealer = api.client("dealer")
    hand = dealer.post(f"/api/v1/tables/{api.world.table.pk}/hands/", format="json").json()
    url = f"/api/v1/hands/{hand['id']}/actions/"
    counts = []
    seq = hand["next_seq"]
    for n, body in enumerate(
        ({"seat": 2, "action": "look"}, {"seat": 2, "action": "bet", "amount": 10})
    ):
        with CaptureQueriesContext(connection) as queries:
            response = dealer.post(
                url, {**body, "expected_seq": seq}, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}"
            )
        assert response.status_code == 201, response.json()
        seq = response.json()["hand"]["next_seq"]
        statements_run = [
            q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
        ]
        counts.append(len(statements_run))
    # token; the hand locked with its log (one statement on PostgreSQL, see
    # ``statements.lock_hand``); whether the dealer was relieved at this table (one indexed
    # read, ``tables.shifts.shift_refuse_relieved``); the action, (a transfer and the stack,)
    # the hand's sequence, the table's version (``tables.versions``); the table's row and its
    # seats for the answer's table state (issue 33: the tablet's next read is then a 304); the
    # idempotency record. A look moves no money.
    lock = 1 if connection.vendor == "postgresql" else 2
    assert counts == [8 + lock, 10 + lock], counts


def test_a_database_that_went_away_answers_503_in_the_error_shape() -> None:
    response = exception_handler(OperationalError("server closed the connection"), {})
    assert response.status_code == 503
    assert response.data["error"]["code"] == "database_unavailable"
    assert response["Retry-After"] == "1"


def test_a_hand_of_another_table_is_not_found_and_not_locked(api: Api) -> None:
    other = table_create(day=api.world.day, by=None)
    assert statements.lock_table(other.pk, roles.TableAccess(api.users["dealer"])) is None
    assert statements.lock_table(other.pk, roles.TableAccess(api.users["supervisor"])) is not None
    assert Table.objects.count() == 2


@pytest.mark.parametrize("pk", [0, 2**63, 11320888963708807168, 10**30])
def test_ids_no_row_can_have_are_simply_not_found(api: Api, pk: int) -> None:
    # Found by schemathesis on SQLite: the hand-written look-ups must answer like the ORM.
    dealer = api.client("organiser")
    assert dealer.post(f"/api/v1/tables/{pk}/hands/", format="json").status_code == 404
    body = {"seat": 1, "action": "fold", "expected_seq": 1}
    assert dealer.post(f"/api/v1/hands/{pk}/actions/", body, format="json").status_code == 404
