"""Django's command slot: the command is search/interfaces/commands/semantic_search.py."""

from search.interfaces.commands.semantic_search import Command  # noqa: F401
