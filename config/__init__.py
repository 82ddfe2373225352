"""The Django project: settings by concern, urls, the Celery app (`celery -A config`), WSGI/ASGI,
the gunicorn hooks and the embedded PostgreSQL backend."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
