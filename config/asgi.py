"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

# Refuse to start rather than answer every admin page with a 500 (cms/static_files.py).
from cms.static_files import static_files_collected_or_refuse  # noqa: E402 - needs the settings loaded

static_files_collected_or_refuse()
