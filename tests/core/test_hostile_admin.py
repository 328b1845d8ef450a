"""Hostile input into every page of Django's admin (``tests/core/hostile.py``): every field of a
form at once, each of ``ADMIN_HOSTILE``, and every query parameter its links use; no answer may be
a 5xx, and the ledger audit passes afterwards. Our own pages: ``test_hostile_input.py``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.hostile import World, build_world, pages, send_hostile

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages_world(settings: Any) -> World:
    return build_world()


@pytest.mark.slow  # every admin page × every hostile value: a minute or more
def test_no_hostile_input_makes_any_admin_page_answer_5xx(pages_world: World) -> None:
    found, problems = pages(pages_world)
    assert not problems, "\n".join(problems)
    admin = [p for p in found if p.admin]
    assert len(admin) >= 15, [p.url for p in found]
    send_hostile(pages_world, admin)
