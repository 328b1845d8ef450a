from django.apps import AppConfig


class TabletConfig(AppConfig):
    name = "brag_event.tablet"
    verbose_name = "Dealer's tablet"
