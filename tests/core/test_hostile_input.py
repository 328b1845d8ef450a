"""Hostile input into every page, found from the URL configuration: no answer may be a 5xx, and
the ledger audit passes afterwards.

Every route of ``brag_event.urls`` is visited (nothing is listed by hand, so a page is covered
the day it is added):

- our own pages must declare what they read (``@takes(query=…, post=…)``, ``core/forms.py``): a
  page without a declaration fails, and so does one whose rendered HTML has a form field or a
  link's query parameter that its declaration does not name;
- every declared query parameter, and every one found in the page's links, is sent each hostile
  value; every field of every form — declared, and found in the rendered HTML — is posted each
  hostile value in turn, the other fields keeping the values the page gave them;
- the admin's pages (Django's own forms) get the same, every field of a form at once;
- ``/api/`` is left to schemathesis (``tests/api/test_schemathesis.py``), which drives every
  operation in the schema, now with nested and oversized bodies too.

A static check goes with it: no code of ours reads ``request.GET``/``POST``/``FILES`` by key —
they are only ever handed whole to a form."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from tests.core.hostile import ROOT, World, build_world, pages, send_hostile

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages_world(settings: Any) -> World:
    return build_world()


@pytest.mark.slow  # every page × every hostile value: a minute or more
def test_no_hostile_input_makes_any_page_answer_5xx(pages_world: World) -> None:
    """Our pages; the admin's get the same in ``test_hostile_admin.py`` (a file of its own, so
    that the two halves can run on two processes)."""
    found, problems = pages(pages_world)
    assert not problems, "\n".join(problems)
    ours = [p for p in found if not p.admin]
    assert len(ours) >= 15, [p.url for p in found]
    send_hostile(pages_world, ours)


def test_a_page_with_inputs_but_no_declaration_fails_the_discovery(
    pages_world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The discovery itself is tested: take one page's declaration away and it is reported."""
    from brag_event.organiser import player_views

    monkeypatch.delattr(player_views.players, "inputs")
    _found, problems = pages(pages_world)
    assert any("declares no inputs" in p and "players" in p for p in problems), problems


# ------------------------------------------------------------------ no hand-read request data


class RequestDataReads(ast.NodeVisitor):
    """``request.GET[...]``, ``request.POST.get(...)``, ``request.FILES.getlist(...)``… anything
    but handing the whole QueryDict to a form."""

    def __init__(self) -> None:
        self.found: list[int] = []

    def visit_Attribute(self, node: ast.Attribute) -> None:
        inner = node.value
        if (
            isinstance(inner, ast.Attribute)
            and inner.attr in ("GET", "POST", "FILES", "query_params")
            and node.attr in ("get", "getlist", "items", "keys", "values", "dict", "lists")
        ):
            self.found.append(node.lineno)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.value, ast.Attribute) and node.value.attr in (
            "GET",
            "POST",
            "FILES",
            "query_params",
        ):
            self.found.append(node.lineno)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        # "csv" in request.FILES
        for right in node.comparators:
            if isinstance(right, ast.Attribute) and right.attr in ("GET", "POST", "FILES"):
                self.found.append(node.lineno)
        self.generic_visit(node)


ALLOWED: dict[str, int] = {  # files allowed so many hand reads, with the reason
    # A form refused by the CSRF check: what was typed goes back, as typed and escaped, to the
    # page it was typed on (never used, never saved), whatever fields that form had.
    "brag_event/organiser/csrf.py": 1,
}


def test_no_code_reads_request_data_by_hand() -> None:
    offenders = []
    for path in sorted((ROOT / "brag_event").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        visitor = RequestDataReads()
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        name = str(path.relative_to(ROOT))
        if len(visitor.found) > ALLOWED.get(name, 0):
            offenders += [f"{name}:{line}" for line in visitor.found]
    assert not offenders, "read through a form instead:\n" + "\n".join(offenders)


def test_the_static_check_finds_a_hand_read() -> None:
    visitor = RequestDataReads()
    visitor.visit(ast.parse("n = int(request.GET['day'])\nm = request.POST.get('x')\n"))
    assert visitor.found == [1, 2]
