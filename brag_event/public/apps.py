from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "brag_event.public"
    verbose_name = "Standings and players' pages"
