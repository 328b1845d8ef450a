"""Accounts made or renamed in the admin pass the staff page's user-name check (issue 43):
a name that looks the same as another account's ("оrganiser" with a Cyrillic "о", a
zero-width space, an accent typed on its own) is refused in the same words and nothing is
saved; a plain new name goes in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password-7"


@pytest.fixture
def admin_client() -> Client:
    root = User.objects.create_superuser("root", password=PASSWORD)
    User.objects.create_user("organiser", password=PASSWORD)
    client = Client()
    client.force_login(root)
    return client


def add(client: Client, username: str) -> tuple[int, str]:
    response = client.post(
        "/admin/auth/user/add/",
        {
            "username": username,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    return response.status_code, response.content.decode()


@pytest.mark.parametrize(
    ("username", "words"),
    [
        ("\u043erganiser", "looks the same as organiser"),  # Cyrillic о
        ("ORGANISER", "The user name ORGANISER is taken"),
        ("super\u200bvisor", "letters, digits and @ . + - _ only"),
        ("dealer1\u0301", "letters, digits and @ . + - _ only"),
    ],
)
def test_a_look_alike_or_invisible_user_name_is_refused_in_the_admin(
    admin_client: Client, username: str, words: str
) -> None:
    before = list(User.objects.order_by("pk").values_list("pk", "username"))
    status, page = add(admin_client, username)
    assert status == 200 and words in page.replace("&#x27;", "'"), page[:2000]
    assert list(User.objects.order_by("pk").values_list("pk", "username")) == before


def test_a_plain_name_goes_in_and_renaming_to_a_look_alike_is_refused(
    admin_client: Client,
) -> None:
    status, _page = add(admin_client, "dealer1")
    assert status == 302
    dealer = User.objects.get(username="dealer1")
    change = f"/admin/auth/user/{dealer.pk}/change/"
    form = {
        "username": "\u043erganiser",
        "is_active": "on",
        "date_joined_0": "2026-11-28",
        "date_joined_1": "12:00:00",
    }
    response = admin_client.post(change, form)
    assert response.status_code == 200
    assert "looks the same as organiser" in response.content.decode()
    dealer.refresh_from_db()
    assert dealer.username == "dealer1"
    # Its own name is not "taken": saving it unchanged goes through.
    response = admin_client.post(change, form | {"username": "dealer1"})
    assert response.status_code == 302, response.content.decode()[:2000]
