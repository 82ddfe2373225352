"""The Django project package and the content domain (workspaces, content types, entries, assets)."""

from cms.celery import app as celery_app

__all__ = ["celery_app"]
