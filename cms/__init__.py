"""The Django project package and the content domain (workspaces, content types, entries, assets)."""

# The app's version, in one place: the OpenAPI document's and the MCP server's (serverInfo).
# Set before anything is imported, so cms.settings can read it whatever imports it first.
__version__ = "1.0.0"

from cms.celery import app as celery_app  # noqa: E402

__all__ = ["__version__", "celery_app"]
