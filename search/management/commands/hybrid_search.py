"""Django's command slot: the command is search/interfaces/commands/hybrid_search.py."""

from search.interfaces.commands.hybrid_search import Command  # noqa: F401
