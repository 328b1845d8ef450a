"""WSGI entry point for Brag Event."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "brag_event.settings")

application = get_wsgi_application()
