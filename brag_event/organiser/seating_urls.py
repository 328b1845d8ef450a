"""The seating draw's pages (``organiser/seating_views.py``)."""

from django.urls import path

from . import checkin_views, rota_views, seating_views

urlpatterns = [
    path("", seating_views.seating, name="seating"),
    path("check-in/", checkin_views.checkin, name="checkin"),
    path("sheets/", seating_views.sheets, name="seating_sheets"),
    path("balance/", seating_views.balance, name="seating_balance"),
    path("dealers/", seating_views.dealers, name="seating_dealers"),
    path("rota/", rota_views.rota, name="rota"),
]
