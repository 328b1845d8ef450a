"""The tablet can be added to a home screen (a web app manifest with icons, full-screen), and
every page has an icon (no 404 for /favicon.ico)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_opens_the_tablet_full_screen_with_its_icons(client: Client) -> None:
    answer = client.get("/tablet/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    body = answer.json()
    assert body["display"] == "fullscreen"
    assert body["start_url"] == "/tablet/" and body["scope"] == "/tablet/"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in body["icons"])
    for icon in body["icons"]:
        name = icon["src"].split("/static/", 1)[1]
        assert finders.find(name), name


@pytest.mark.parametrize("path", ["/tablet/", "/tablet/login/", "/tablet/tables/1/", "/"])
def test_every_page_names_its_icon(client: Client, path: str) -> None:
    html = client.get(path).content.decode()
    icons = re.findall(r'<link rel="icon" href="([^"]+)"', html)
    assert icons
    for href in icons:
        assert finders.find(href.split("/static/", 1)[1])
    if path.startswith("/tablet/"):
        assert '<link rel="manifest" href="/tablet/manifest.webmanifest">' in html


def test_favicon_ico_is_the_sites_icon(client: Client) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert finders.find(answer["Location"].split("/static/", 1)[1])
