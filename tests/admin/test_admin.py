"""The organisers' admin: every page opens, day rules are validated field by field and changed
through the logged service, players are registered through the service, and the records of
hands, money and the audit log cannot be added, changed or deleted."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Model
from django.test.client import Client, RequestFactory

from brag_event.audit.models import AuditEntry
from brag_event.core.errors import ServiceError
from brag_event.events.models import Day, DayRulesChange, Event
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.ledger.models import Account, Transfer
from brag_event.players.models import Person, Player
from brag_event.tables.models import RebuyConsent, Seat, Table
from brag_event.tables.services import seat_buy_in

from .conftest import Data, admin_url, change_form_data

pytestmark = pytest.mark.django_db

OURS = ("events", "players", "tables", "hands", "ledger", "audit")
READ_ONLY: tuple[type[Model], ...] = (
    DayRulesChange,
    RebuyConsent,
    Hand,
    HandAction,
    ActionVoid,
    Account,
    Transfer,
    AuditEntry,
)


def registered() -> list[type[Model]]:
    return [m for m in admin.site._registry if m._meta.app_label in OURS]


def test_every_model_is_registered() -> None:
    expected = {Event, Day, DayRulesChange, Person, Player, Table, Seat, RebuyConsent}
    expected |= {Hand, HandAction, ActionVoid, Account, Transfer, AuditEntry}
    assert set(registered()) == expected


def test_every_changelist_and_change_page_opens(admin_client: Client, data: Data) -> None:
    for model in registered():
        response = admin_client.get(admin_url(model, "changelist"))
        assert response.status_code == 200, model
        if admin.site._registry[model].search_fields:
            response = admin_client.get(admin_url(model, "changelist"), {"q": "Andy"})
            assert response.status_code == 200, model
        obj = model._default_manager.first()
        if obj is None:
            assert model is RebuyConsent  # the only record the small event has none of
            continue
        response = admin_client.get(admin_url(model, "change", obj.pk))
        assert response.status_code == 200, model
    for model in (Event, Day, Player, Table):
        assert admin_client.get(admin_url(model, "add")).status_code == 200, model


def test_list_filters_open(admin_client: Client, data: Data) -> None:
    pages = [
        (Seat, {"seated": "no"}),
        (Seat, {"left_at__isnull": "True"}),
        (Seat, {"table__day__id__exact": str(data.day.pk)}),
        (Transfer, {"kind__exact": "issue"}),
        (AuditEntry, {"verb": "player.register"}),
        (Player, {"event__id__exact": str(data.event.pk)}),
    ]
    for model, query in pages:
        response = admin_client.get(admin_url(model, "changelist"), query)
        assert response.status_code == 200, (model, query)
    response = admin_client.get(admin_url(Seat, "changelist"), {"seated": "no"})
    assert list(response.context["cl"].queryset) == [data.seats[3]]


# Days ---------------------------------------------------------------------------------------


def post_day(client: Client, day: Day, **changes: Any) -> Any:
    url = admin_url(day, "change", day.pk)
    form = change_form_data(client, url)
    form.update({name: str(value) for name, value in changes.items()})
    return client.post(url, form)


@pytest.mark.parametrize(
    ("changes", "fields", "message"),
    [
        (
            {"min_bet": 30, "max_bet": 20},
            {"min_bet", "max_bet"},
            "The minimum first bet must not be more than the maximum.",
        ),
        (
            {"table_min": 300, "table_max": 240},
            {"table_min", "table_max"},
            "The least money on the table must not be more than the most.",
        ),
        ({"ante": -5}, {"ante"}, "The ante must not be negative."),
    ],
)
def test_day_form_names_the_bad_field(
    admin_client: Client, data: Data, changes: dict[str, int], fields: set[str], message: str
) -> None:
    before = data.day.rules_dict()
    response = post_day(admin_client, data.day, **changes)
    assert response.status_code == 200  # the form again, with the errors
    form = response.context["adminform"].form
    for field in fields:
        assert form.errors[field] == [message]
    assert set(form.errors) == fields  # one clear message, on the fields concerned only
    assert message in response.content.decode()
    data.day.refresh_from_db()
    assert data.day.rules_dict() == before
    assert not DayRulesChange.objects.filter(day=data.day).exists()


def test_day_form_reports_every_bad_field_at_once(admin_client: Client, data: Data) -> None:
    response = post_day(admin_client, data.day, ante=-1, house_fee=-2)
    errors = response.context["adminform"].form.errors
    assert errors["ante"] == ["The ante must not be negative."]
    assert errors["house_fee"] == ["The house fee must not be negative."]


def test_a_valid_day_change_is_logged(admin_client: Client, data: Data) -> None:
    admin_user = User.objects.get(username="admin")
    response = post_day(admin_client, data.day, max_bet=30, table_max=300)
    assert response.status_code == 302
    data.day.refresh_from_db()
    assert (data.day.max_bet, data.day.table_max) == (30, 300)
    change = DayRulesChange.objects.get(day=data.day)
    assert change.changed_by == admin_user and change.reason == "changed in admin"
    assert (change.before["max_bet"], change.after["max_bet"]) == (20, 30)
    entry = AuditEntry.objects.get(verb="day.rules", target=str(data.day))
    assert entry.actor == admin_user and entry.device == "admin 127.0.0.1"
    assert entry.data["changed"] == {"max_bet": [20, 30], "table_max": [240, 300]}
    # The hand already dealt keeps the rules it started with.
    data.hand.refresh_from_db()
    assert data.hand.rules["max_bet"] == 20


def test_the_second_confirmation_is_set_checked_and_logged_in_the_admin(
    admin_client: Client, data: Data
) -> None:
    bad = post_day(admin_client, data.day, award_confirm_from=0)
    assert bad.status_code == 200
    assert bad.context["adminform"].form.errors["award_confirm_from"] == [
        "At least 1 (or leave it empty: never)."
    ]
    assert post_day(admin_client, data.day, award_confirm_from=640).status_code == 302
    data.day.refresh_from_db()
    assert data.day.award_confirm_from == 640
    change = DayRulesChange.objects.get(day=data.day)
    assert (change.before["award_confirm_from"], change.after["award_confirm_from"]) == (None, 640)
    assert "award_confirm_from" not in data.day.rules().to_dict()  # never the engine's


def test_saving_a_day_unchanged_logs_nothing(admin_client: Client, data: Data) -> None:
    logged = AuditEntry.objects.filter(target=str(data.day), verb__startswith="day.")
    before = logged.count()  # its opening
    assert post_day(admin_client, data.day).status_code == 302
    assert not DayRulesChange.objects.filter(day=data.day).exists()
    assert logged.count() == before


def test_a_closed_days_rules_are_read_only(admin_client: Client, data: Data) -> None:
    Day.objects.filter(pk=data.day.pk).update(status=Day.Status.CLOSED)
    response = post_day(admin_client, data.day, max_bet=30, status="open")
    assert response.status_code == 302
    data.day.refresh_from_db()
    assert data.day.max_bet == 20 and data.day.status == Day.Status.CLOSED


def test_adding_a_day(admin_client: Client, data: Data) -> None:
    form = change_form_data(admin_client, admin_url(Day, "add"))
    form.update(
        event=str(data.event.pk),
        number="4",
        ante="5",
        min_bet="5",
        max_bet="20",
        max_raise="20",
        house_fee="10",
        table_min="90",
        table_max="240",
    )
    response = admin_client.post(admin_url(Day, "add"), form)
    assert response.status_code == 302
    day = data.event.days.get(number=4)
    assert day.rules().max_bet == 20
    form.update(number="5", min_bet="50")
    response = admin_client.post(admin_url(Day, "add"), form)
    message = "The minimum first bet must not be more than the maximum."
    assert response.context["adminform"].form.errors == {
        "min_bet": [message],
        "max_bet": [message],
    }


# Players ------------------------------------------------------------------------------------


def test_adding_a_player_registers_them_with_their_money(admin_client: Client, data: Data) -> None:
    url = admin_url(Player, "add")
    form = change_form_data(admin_client, url)
    form.update(event=str(data.event.pk), name="  Eddie  ", starting_money="750")
    response = admin_client.post(url, form)
    assert response.status_code == 302
    player = Player.objects.get(event=data.event, name="Eddie")
    assert player.balance == 750
    issue = Transfer.objects.get(kind=Transfer.Kind.ISSUE, target__player=player)
    assert issue.amount == 750 and issue.created_by is not None
    assert AuditEntry.objects.filter(verb="player.register", target="Eddie").count() == 1
    assert AuditEntry.objects.filter(verb="player.issue", target="Eddie").count() == 1


def test_adding_a_player_without_money(admin_client: Client, data: Data) -> None:
    url = admin_url(Player, "add")
    form = change_form_data(admin_client, url)
    # Left empty in an event with no starting money set: refused, never taken as 0.
    form.update(event=str(data.event.pk), name="Fred", starting_money="")
    if data.event.starting_money is None:
        answer = admin_client.post(url, form, follow=True)
        assert not Player.objects.filter(name="Fred").exists()
        assert "no starting money set" in answer.content.decode()
    form.update(starting_money="0")  # said: 0
    assert admin_client.post(url, form).status_code == 302
    player = Player.objects.get(name="Fred")
    assert player.balance == 0
    assert not Transfer.objects.filter(target__player=player).exists()
    assert Account.objects.filter(kind=Account.Kind.PLAYER, player=player).exists()


def test_adding_a_player_refuses_bad_input(admin_client: Client, data: Data) -> None:
    url = admin_url(Player, "add")
    form = change_form_data(admin_client, url)
    form.update(event=str(data.event.pk), name="Andy ", starting_money="100")
    errors = admin_client.post(url, form).context["adminform"].form.errors
    assert errors == {"name": ["“Andy” is already registered for FLASH."]}
    form.update(name="Gary", starting_money="-1")
    errors = admin_client.post(url, form).context["adminform"].form.errors
    assert list(errors) == ["starting_money"]
    assert not Player.objects.filter(name="Gary").exists()
    assert Player.objects.count() == 4


def test_editing_a_player_changes_the_name_only(admin_client: Client, data: Data) -> None:
    andy = data.players[0]
    url = admin_url(andy, "change", andy.pk)
    form = change_form_data(admin_client, url)
    assert "balance" not in form and "event" not in form
    form.update(name="Andrew", balance="999999")
    assert admin_client.post(url, form).status_code == 302
    andy.refresh_from_db()
    assert andy.name == "Andrew" and andy.balance == 1000 - 200 - 10
    form.update(name="Bill")
    errors = admin_client.post(url, form).context["adminform"].form.errors
    assert errors == {"name": ["“Bill” is already registered for FLASH."]}


# Tables and seats ---------------------------------------------------------------------------


def test_adding_a_table_goes_through_the_service(admin_client: Client, data: Data) -> None:
    url = admin_url(Table, "add")
    form = change_form_data(admin_client, url)
    admin_user = User.objects.get(username="admin")
    form.update(day=str(data.day.pk), number="", dealers=[str(admin_user.pk)])
    assert admin_client.post(url, form).status_code == 302
    table = Table.objects.get(day=data.day, number=2)
    assert list(table.dealers.all()) == [admin_user]
    assert AuditEntry.objects.filter(verb="table.create", target=str(table)).exists()
    assert AuditEntry.objects.filter(verb="table.dealers", target=str(table)).exists()


def test_editing_a_table_changes_only_its_dealers(admin_client: Client, data: Data) -> None:
    table = data.table
    url = admin_url(table, "change", table.pk)
    form = change_form_data(admin_client, url)
    assert "dealers" in form and "carried_pot" not in form and "button" not in form
    admin_user = User.objects.get(username="admin")
    form.update(dealers=[str(admin_user.pk)], number="9", button="3")
    assert admin_client.post(url, form).status_code == 302
    table.refresh_from_db()
    assert list(table.dealers.all()) == [admin_user]
    assert (table.number, table.button) == (1, 1)


def test_seats_cannot_be_added_or_deleted(admin_client: Client, data: Data) -> None:
    seat = data.seats[0]
    assert admin_client.get(admin_url(Seat, "add")).status_code == 403
    assert admin_client.post(admin_url(Seat, "add"), {"table": data.table.pk}).status_code == 403
    assert admin_client.get(admin_url(seat, "delete", seat.pk)).status_code == 403
    response = admin_client.get(admin_url(Seat, "changelist"))
    assert "seat_buy_in" in response.content.decode()


def test_editing_a_seat_sits_out_through_the_service(admin_client: Client, data: Data) -> None:
    seat = data.seats[2]
    url = admin_url(seat, "change", seat.pk)
    form = change_form_data(admin_client, url)
    assert set(form) & {"stack", "player", "table", "number", "left_at"} == set()
    form.update(sitting_out="on", stack="5000")
    assert admin_client.post(url, form).status_code == 302
    before = seat.stack
    seat.refresh_from_db()
    assert seat.sitting_out and seat.stack == before
    assert AuditEntry.objects.filter(verb="seat.sit_out", target=f"{seat}, day 1").exists()


def test_the_leave_action_returns_the_stack(admin_client: Client, data: Data) -> None:
    andy = data.seats[0]  # dealt into the hand being played
    dan = seat_buy_in(table=data.table, seat_number=4, player=data.players[3], amount=150, by=None)
    balance = Player.objects.get(pk=dan.player_id).balance
    response = admin_client.post(
        admin_url(Seat, "changelist"),
        {"action": "leave_table", "_selected_action": [dan.pk, andy.pk]},
        follow=True,
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "Andy is in the hand being played" in text
    assert "1 player(s) left their table." in text
    dan.refresh_from_db()
    andy.refresh_from_db()
    assert dan.left_at is not None and dan.stack == 0
    assert Player.objects.get(pk=dan.player_id).balance == balance + 150
    assert andy.left_at is None and andy.stack > 0


# Read-only records ---------------------------------------------------------------------------


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda m: m.__name__)
def test_records_are_read_only(admin_client: Client, data: Data, model: type[Model]) -> None:
    assert admin_client.post(admin_url(model, "add"), {}).status_code == 403
    request = RequestFactory().get("/")
    request.user = User.objects.get(username="admin")
    model_admin = admin.site._registry[model]
    assert "delete_selected" not in model_admin.get_actions(request)
    obj = model._default_manager.first()
    if obj is not None:
        assert admin_client.get(admin_url(model, "change", obj.pk)).status_code == 200
        assert admin_client.post(admin_url(model, "change", obj.pk), {}).status_code == 403
        assert (
            admin_client.post(admin_url(model, "delete", obj.pk), {"post": "yes"}).status_code
            == 403
        )
        assert model._default_manager.filter(pk=obj.pk).exists()


def test_account_list_shows_ledger_balances(admin_client: Client, data: Data) -> None:
    response = admin_client.get(admin_url(Account, "changelist"), {"kind__exact": "player"})
    model_admin = admin.site._registry[Account]
    balances = {
        str(a): model_admin.ledger_balance(a)  # type: ignore[attr-defined]
        for a in response.context["cl"].queryset
    }
    cached = {f"balance of {p.name}": Player.objects.get(pk=p.pk).balance for p in data.players}
    assert balances == cached


def test_event_page_lists_its_days_with_links(admin_client: Client, data: Data) -> None:
    response = admin_client.get(admin_url(data.event, "change", data.event.pk))
    text = response.content.decode()
    for day in data.event.days.all():
        assert admin_url(day, "change", day.pk) in text


def test_a_late_refusal_of_a_service_is_shown_and_rolls_back(
    admin_client: Client, data: Data, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**kwargs: Any) -> Player:
        Player.objects.create(event=kwargs["event"], name=kwargs["name"])  # then refused
        raise ServiceError("day_closed", "Refused by the service.")

    monkeypatch.setattr("brag_event.players.admin.player_register", refuse)
    url = admin_url(Player, "add")
    form = change_form_data(admin_client, url)
    form.update(event=str(data.event.pk), name="Gary", starting_money="10")
    response = admin_client.post(url, form, follow=True)
    assert response.status_code == 200
    assert "Refused by the service." in response.content.decode()
    assert not Player.objects.filter(name="Gary").exists()
