"""Shared pytest fixtures (pytest-django provides ``client``, ``db``, ``settings`` ...)."""
