"""Django's command slot: the command is search/interfaces/commands/search_insights.py."""

from search.interfaces.commands.search_insights import Command  # noqa: F401
