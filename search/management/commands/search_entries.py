"""Django's command slot: the command is search/interfaces/commands/search_entries.py."""

from search.interfaces.commands.search_entries import Command  # noqa: F401
