from django.urls import path

from . import views

app_name = "tablet"

urlpatterns = [
    path("", views.tables, name="tables"),
    path("login/", views.login, name="login"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("engine/<str:version>.zip", views.engine, name="engine"),
]
