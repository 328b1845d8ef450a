from django.apps import AppConfig


class OrganiserConfig(AppConfig):
    name = "brag_event.organiser"
    verbose_name = "Organisers' pages"
