"""Django settings, one module per concern, composed here: the only package that reads environment
variables (via django-environ, in config/settings/base.py).

Every variable is documented in docs/operators.md (Configuration) and .env.example.
"""

from config.settings.base import *  # noqa: F403
from config.settings.database import *  # noqa: F403
from config.settings.api import *  # noqa: F403
from config.settings.search import *  # noqa: F403
from config.settings.celery import *  # noqa: F403
from config.settings.embeddings import *  # noqa: F403
