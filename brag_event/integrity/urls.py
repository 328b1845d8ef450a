from django.urls import path

from . import views

app_name = "integrity"

urlpatterns = [
    path("events/<int:event_id>/integrity/", views.overview, name="overview"),
    path("events/<int:event_id>/integrity/run/", views.run_now, name="run"),
    path("events/<int:event_id>/integrity/dealers/", views.dealers, name="dealers"),
    path("hands/<int:hand_id>/", views.hand, name="hand"),
]
