"""WSGI entry point (gunicorn config.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Refuse to start rather than answer every admin page with a 500 (cms/static_files.py).
from cms.static_files import static_files_collected_or_refuse  # noqa: E402 - needs the settings loaded

static_files_collected_or_refuse()
