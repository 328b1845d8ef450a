import pytest
from django.test import Client

from tests.factories import world

pytestmark = pytest.mark.django_db


def test_landing_page_renders(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    body = response.content.decode()
    assert "Brag Event" in body
    assert 'lang="en-GB"' in body
    assert 'name="viewport"' in body
    assert "css/site.css" in body


def test_landing_page_loads_nothing_from_the_internet(client: Client) -> None:
    body = client.get("/").content.decode()

    assert "http://" not in body
    assert "https://" not in body


def test_landing_page_links_the_standings_of_each_event(client: Client) -> None:
    w = world(2)
    body = client.get("/").content.decode()
    assert f"/standings/{w.event.pk}/" in body and "/organiser/" in body and "/tablet/" in body
