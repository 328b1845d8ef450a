"""Hostile input into every page (``tests/core/test_hostile_input.py`` and
``test_hostile_admin.py``): the values, the discovery of every page from the URL configuration,
the world the pages show, and the sending. See ``test_hostile_input`` for what is checked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from brag_event.api.models import DeviceToken, token_hash
from brag_event.core.forms import Inputs
from brag_event.events.models import Event
from brag_event.floor.services import floor_call_open, ruling_record
from brag_event.players.imports import players_import_preview
from brag_event.players.links import player_token
from brag_event.series.services import series_create
from brag_event.tables.seating import seating_draw
from brag_event.tablet.offline import engine_zip
from tests.factories import act, assert_audit_ok, start, world

ROOT = Path(__file__).resolve().parents[2]

# The values a clumsy or hostile person types: other scripts' digits, decimals, exponents, hex,
# signs, separators, a 30-digit number, past 64 bits, empty, white space, invisible characters,
# NUL, markup, a formula, SQL, a path, a far-away redirect, JSON, very long text.
HOSTILE = [
    "²",
    "١٢",
    "𝟘",
    "abc",
    "",
    " ",
    "7.5",
    "1e3",
    "0x10",
    "+5",
    "-1",
    "0",
    "1_000",
    "9" * 30,
    "9223372036854775808",
    "\u200b",
    "\x00",
    "NaN",
    "null",
    "true",
    "[]",
    "<script>alert(1)</script>",
    '=HYPERLINK("http://evil.example")',
    "'; DROP TABLE players_player; --",
    "../../etc/passwd",
    "/\\evil.example/",
    "//evil.example",
    "a" * 5000,
]
# Django's admin gets every field of a form at once, with fewer values (its forms are Django's).
ADMIN_HOSTILE = ["²", "", "7.5", "9" * 30, "\x00", "a" * 5000]
HOSTILE_FILES = [
    b"\xff\xfe\x00bad",
    b'name,starting_money\n=HYPERLINK("x"),1e3\n@SUM(A1),\xc2\xb2\n',
    b"name\n" + b"x" * 200_000 + b"\n",
    b"name,starting_money\n" + b"a,1\n" * 2001,
    b"name\nHARVEY PRICE\nharvey\xe2\x80\x8bprice\n",
]
# The admin's routes a hostile form would use to log the test out or delete its world, and its
# script and autocomplete helpers.
ADMIN_SKIPPED = (
    "_delete",
    ":logout",
    ":password_change",
    ":password_change_done",
    ":view_on_site",
    ":autocomplete",
    ":jsi18n",
)


@dataclass
class Page:
    url: str
    name: str
    callback: Any
    admin: bool
    inputs: Inputs | None


@dataclass
class HtmlForm:
    method: str
    action: str
    fields: dict[str, list[str]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)
    multiple: set[str] = field(default_factory=set)


class FormParser(HTMLParser):
    """The forms of a page with their fields and default values, and its links."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[HtmlForm] = []
        self.links: list[str] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "form":
            # A form the page's script sends to the API names it (data-api): schemathesis's.
            method = "api" if a.get("data-api") else a.get("method", "get").lower()
            self.forms.append(HtmlForm(method, a.get("data-api") or a.get("action", "")))
            return
        if not self.forms:
            return
        form = self.forms[-1]
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind == "file":
                form.files.add(name)
            elif kind in ("checkbox", "radio"):
                form.fields.setdefault(name, [])
                if kind == "checkbox":
                    form.multiple.add(name)
                if "checked" in a:
                    form.fields[name].append(a.get("value", "on"))
            elif kind not in ("submit", "button", "reset", "image"):
                form.fields.setdefault(name, []).append(a.get("value", ""))
        elif tag == "select" and name:
            self._select = name
            form.fields.setdefault(name, [])
            if "multiple" in a:
                form.multiple.add(name)
        elif tag == "option" and self._select:
            values = form.fields[self._select]
            if "selected" in a or not values:
                if values and "selected" in a and self._select not in form.multiple:
                    values.clear()
                values.append(a.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            form.fields.setdefault(name, [""])

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea and self.forms:
            self.forms[-1].fields[self._textarea] = [data]


# ------------------------------------------------------------------ the world the pages show


@dataclass
class World:
    args: dict[str, Any]
    events: list[Event]
    organiser: User


def build_world() -> World:
    """The world every page shows: an event with a hand in play, a second event, a seating draw,
    an organiser, a dealer with a device token, a floor call and ruling, a previewed file."""
    w = world(3)
    hand = start(w)
    hand, _ = act(hand, seat=2, action="look")
    event2 = world(2, name="SECOND").event
    seating_draw(day=w.day, seed="hostile", by=None)  # a draw for the seating pages to show
    organiser = User.objects.create_superuser("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    dealer = User.objects.create_user("dealer", password="x")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    w.table.dealers.add(dealer)
    token = DeviceToken.objects.create(
        user=dealer, name="table 1", key_hash=token_hash("k" * 40), prefix="kkkkkk"
    )
    args = {
        "event_id": w.event.pk,
        "day_id": w.day.pk,
        "table_id": w.table.pk,
        "hand_id": hand.pk,
        "seat_id": w.seat(1).pk,
        "token_id": token.pk,
        "token": player_token(w.players[0]),
        "player_id": w.players[2].pk,
        "person_id": w.players[2].person_id,
        # The floor's pages (issue 17): an open call at table 1, a disqualification.
        "call_id": floor_call_open(table=w.table, hand=hand, note="x", by=None).pk,
        "penalty_id": ruling_record(
            table=w.table,
            what_happened="x",
            decision="y",
            players=[w.players[2].pk],
            penalty="warning",
            by=None,
        )
        .penalties.get()
        .pk,
        "version": engine_zip()[1],  # the tablet's engine zip
        # A file of players previewed, not yet confirmed (issue 27).
        "batch_id": players_import_preview(event=w.event, data=b"name\nZed\n", by=None).pk,
        "series_id": series_create(name="League", points=[3, 2, 1], by=None).pk,
    }
    return World(args, [w.event, event2], organiser)


# ------------------------------------------------------------------ discovery


def routes(
    resolver: URLResolver | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, URLPattern]]:
    """Every route: its full pattern text, its namespaced name, the pattern."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = namespace
            if entry.namespace:
                ns = f"{namespace}{entry.namespace}:"
            yield from routes(entry, prefix + str(entry.pattern), ns)
        else:
            yield prefix + str(entry.pattern), f"{namespace}{entry.name or ''}", entry


def _admin_object_id(callback: Any) -> str | None:
    model = callback.model_admin.model
    obj = model._default_manager.order_by("pk").first()
    return None if obj is None else str(obj.pk)


def fill(route: str, pattern: URLPattern, args: dict[str, Any]) -> str | None:
    """The route with real values in place of its parameters; ``None`` if it cannot be built."""
    text = route.replace("^", "").replace("$", "").replace("\\Z", "")

    def value(name: str) -> str:
        if name == "object_id" and hasattr(pattern.callback, "model_admin"):
            found = _admin_object_id(pattern.callback)
            if found is None:
                raise LookupError(name)
            return found
        if name not in args:
            raise LookupError(name)
        return str(args[name])

    try:
        text = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: value(m.group(1)), text)
        text = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: value(m.group(1)), text)
    except LookupError:
        return None
    if re.search(r"[()\[\]?*+|\\]", text):
        return None  # a regular expression we do not fill (the admin's app list)
    return "/" + text


def pages(w: World) -> tuple[list[Page], list[str]]:
    """Every page that can be reached, and the routes that cannot (with why)."""
    found: list[Page] = []
    problems: list[str] = []
    for route, name, pattern in routes():
        callback = pattern.callback
        module = getattr(callback, "__module__", "") or ""
        if route.startswith("api/"):
            continue  # schemathesis's
        admin = route.startswith("admin/")
        if admin and name.endswith(ADMIN_SKIPPED):
            continue
        inputs = getattr(callback, "inputs", None)
        if not admin:
            if not module.startswith("brag_event."):
                problems.append(f"{route}: a view from {module!r} outside the project")
                continue
            if not isinstance(inputs, Inputs):
                where = f"{module}.{callback.__name__}"
                problems.append(f"{route}: {where} declares no inputs (@takes)")
                continue
        url = fill(route, pattern, w.args)
        if url is None:
            if not admin:
                problems.append(f"{route}: a parameter the test's world has no value for")
            continue
        found.append(Page(url, name, callback, admin, inputs))
    return found, problems


def parse(html: str) -> FormParser:
    parser = FormParser()
    parser.feed(html)
    return parser


def target(page: Page, action: str) -> Page | None:
    """The page a form or link on ``page`` goes to (ours or the admin's), or ``None``."""
    path = urlsplit(action).path or page.url
    if not path.startswith("/"):
        return None
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return Page(path, match.view_name, match.func, path.startswith("/admin/"), None)


# ------------------------------------------------------------------ sending


@dataclass
class Sent:
    requests: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, response: Any, what: str) -> None:
        self.requests += 1
        if response.status_code >= 500:
            self.failures.append(f"{response.status_code} {what}")


def fresh_client(w: World) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(w.organiser)
    return client


def post_data(form: HtmlForm, changes: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {
        k: (v if k in form.multiple else (v[0] if v else "")) for k, v in form.fields.items()
    }
    data.pop("csrfmiddlewaretoken", None)
    data.update(changes)
    return data


def show(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 40 else text[:37] + "…"


def send_hostile(w: World, found: list[Page]) -> None:
    """Every hostile value into every query parameter and form field of ``found`` (as the module
    says); no answer may be a 5xx, every field a page shows must be declared, and the ledger
    audit passes afterwards."""
    sent = Sent()
    undeclared: list[str] = []
    for page in found:
        client = fresh_client(w)  # a hostile post may have logged the last one out
        response = client.get(page.url)
        sent.check(response, f"GET {page.url}")
        is_html = response.get("Content-Type", "").startswith("text/html")
        parsed = parse(response.content.decode("utf-8", "replace")) if is_html else FormParser()
        values = ADMIN_HOSTILE if page.admin else HOSTILE

        # The query string: declared parameters, and those the page's links use.
        params: set[str] = set()
        if page.inputs and page.inputs.query:
            params |= set(page.inputs.query.base_fields)
        for link in parsed.links:
            there = target(page, link)
            if there is None or there.url != page.url:
                continue
            used = {k for k, _ in parse_qsl(urlsplit(link).query, keep_blank_values=True)}
            if not page.admin and page.inputs is not None:
                declared = set(page.inputs.query.base_fields) if page.inputs.query else set()
                undeclared += [f"{page.url}: link ?{n}= not declared" for n in used - declared]
            params |= used
        for param in sorted(params):
            for value in values:
                response = client.get(page.url, {param: value})
                sent.check(response, f"GET {page.url}?{param}={show(value)}")

        # The forms on the page, as rendered.
        covered: set[str] = set()
        for form in parsed.forms:
            if form.method == "api":
                assert form.action.startswith("/api/v1/"), form.action
                assert resolve(form.action).url_name != "api-not-found", form.action
                continue
            there = target(page, form.action)
            if there is None:
                continue
            declared_fields = getattr(there.callback, "inputs", None)
            if not there.admin:
                assert isinstance(declared_fields, Inputs), f"{there.url} declares no inputs"
                extra = (set(form.fields) | form.files) - declared_fields.fields()
                extra.discard("csrfmiddlewaretoken")
                undeclared += [f"{page.url}: form field {n!r} → {there.url}" for n in extra]
            if form.method != "post":
                continue
            names = [n for n in (*form.fields, *sorted(form.files)) if n != "csrfmiddlewaretoken"]
            if there.url == page.url:
                covered |= set(names)
            if there.admin:
                for value in values:
                    changes = {n: value for n in names if n not in form.files}
                    response = client.post(there.url, post_data(form, changes))
                    sent.check(response, f"POST {there.url} all fields={show(value)}")
                continue
            for name in names:
                if name == "form":
                    continue
                for value in values:
                    if name in form.files:
                        continue
                    multi = [value] if name in form.multiple else value
                    response = client.post(there.url, post_data(form, {name: multi}))
                    sent.check(response, f"POST {there.url} {name}={show(value)}")
            for name in form.files:
                for i, content in enumerate(HOSTILE_FILES):
                    upload = SimpleUploadedFile(f"hostile{i}.csv", content, "text/csv")
                    response = client.post(there.url, post_data(form, {name: upload}))
                    sent.check(response, f"POST {there.url} {name}=<file {i}>")

        # Declared forms, even those the page does not show now (a closed day's, say).
        if page.inputs and page.inputs.post:
            for key, form_class in page.inputs.post.items():
                for name in set(form_class.base_fields) - covered:
                    for value in values:
                        data = {name: value, **({"form": key} if key else {})}
                        response = client.post(page.url, data)
                        sent.check(response, f"POST {page.url} [{key}] {name}={show(value)}")
            if len(page.inputs.post) > 1:
                for value in values:
                    response = client.post(page.url, {"form": value})
                    sent.check(response, f"POST {page.url} form={show(value)}")
    assert not undeclared, "\n".join(sorted(set(undeclared)))
    assert not sent.failures, f"{len(sent.failures)} of {sent.requests}:\n" + "\n".join(
        sent.failures[:60]
    )
    for event in w.events:
        assert_audit_ok(event)
