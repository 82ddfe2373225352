"""Django's command slot: the command is search/interfaces/commands/mcp_serve.py."""

from search.interfaces.commands.mcp_serve import Command  # noqa: F401
