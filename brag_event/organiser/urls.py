from django.urls import include, path

from . import views

app_name = "organiser"

urlpatterns = [
    path("", views.events, name="events"),
    path("events/<int:event_id>/", views.dashboard, name="dashboard"),
    path("days/<int:day_id>/seating/", include("brag_event.organiser.seating_urls")),
]
