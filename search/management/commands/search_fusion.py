"""Django's command slot: the command is search/interfaces/commands/search_fusion.py."""

from search.interfaces.commands.search_fusion import Command  # noqa: F401
