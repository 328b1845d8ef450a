"""Where the tablet goes after logging in: a path of this site only. The server checks ``?next=``
(``url_has_allowed_host_and_scheme``) and the page's script checks it again with the browser's
own URL parser, so neither a crafted link nor a tampered page sends a dealer off-site."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from .conftest import Hall

OFF_SITE = [
    "/\\evil.example/",
    "/\t/evil.example",
    "//evil.example/",
    "///evil.example/",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "\\\\evil.example",
    " //evil.example",
    "evil.example",
    "",
]


def next_of(client: Client, value: str) -> str:
    html = client.get("/tablet/login/", {"next": value}).content.decode()
    found = re.search(r'data-next="([^"]*)"', html)
    assert found, html
    return found.group(1)


@pytest.mark.parametrize("value", OFF_SITE)
def test_the_server_sends_an_off_site_next_home(value: str) -> None:
    assert next_of(Client(), value) == "/tablet/"


@pytest.mark.parametrize(
    "raw", ["/%09/evil.example", "/%5Cevil.example/", "%2F%2Fevil.example", "/%0a/evil.example"]
)
def test_the_server_decodes_then_checks(raw: str) -> None:
    """The issue's own links, as a browser sends them: decoded, then checked."""
    html = Client().get(f"/tablet/login/?next={raw}").content.decode()
    assert 'data-next="/tablet/"' in html


@pytest.mark.parametrize("value", ["/tablet/tables/3/", "/tablet/?x=1"])
def test_a_path_of_this_site_is_kept(value: str) -> None:
    assert next_of(Client(), value) == value.replace("&", "&amp;")


@pytest.mark.parametrize("tampered", ["/\\evil.example/", "/\t/evil.example", "//evil.example"])
def test_the_script_refuses_an_off_site_next_even_from_a_tampered_page(
    hall: Hall, browser: Any, tampered: str
) -> None:
    context = browser.new_context(viewport={"width": 1180, "height": 820})
    hall.contexts.append(context)
    page = context.new_page()
    page.route("**://evil.example/**", lambda route: route.abort())
    page.goto(f"{hall.url}/tablet/login/?next=/tablet/tables/{hall.world.table.pk}/")
    # As if the server had let it through: the script must still stay on the site.
    page.evaluate("(v) => document.getElementById('login').setAttribute('data-next', v)", tampered)
    page.get_by_label("User name").fill("dealer")
    page.get_by_label("Password").fill("dealer-pw")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{hall.url}/tablet/")
    assert page.url == f"{hall.url}/tablet/"


def test_the_script_follows_a_next_of_this_site(hall: Hall, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1180, "height": 820})
    hall.contexts.append(context)
    page = context.new_page()
    wanted = f"/tablet/tables/{hall.world.table.pk}/"
    page.goto(f"{hall.url}/tablet/login/?next={wanted}")
    page.get_by_label("User name").fill("dealer")
    page.get_by_label("Password").fill("dealer-pw")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{hall.url}{wanted}")
