"""Shared pytest set-up (pytest-django provides ``client``, ``db``, ``settings`` ...)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

# In CI the property tests run the same examples every time (a failure there is reproducible and
# never a coin toss); locally they explore new examples on every run.
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """Real password hashing costs seconds per user; tests do not need its strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
