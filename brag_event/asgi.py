"""ASGI entry point for Brag Event."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "brag_event.settings")

application = get_asgi_application()
