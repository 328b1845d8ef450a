from typing import Any

import pytest


@pytest.fixture
def commits(django_capture_on_commit_callbacks: Any) -> Any:
    """Run on-commit callbacks (the queued sends) as the test's transaction never commits."""
    return django_capture_on_commit_callbacks
