from django.urls import path

from . import views

app_name = "public"

urlpatterns = [
    path("p/<str:token>/", views.player, name="player"),
]
