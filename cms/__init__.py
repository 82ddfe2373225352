"""The content domain (workspaces, content types, entries, assets, API keys, synonyms, promotions).

The Django project (settings, urls, Celery, WSGI/ASGI) is the `config` package.
"""

# The app's version, in one place: the OpenAPI document's and the MCP server's (serverInfo).
__version__ = "1.0.0"

__all__ = ["__version__"]
