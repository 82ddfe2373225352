"""Django's command slot: the command is search/interfaces/commands/agentic_search.py."""

from search.interfaces.commands.agentic_search import Command  # noqa: F401
