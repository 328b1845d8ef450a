"""The seating draw's pages (``organiser/seating_views.py``)."""

from django.urls import path

from . import seating_views

urlpatterns = [
    path("", seating_views.seating, name="seating"),
]
