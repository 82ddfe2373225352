"""Django's command slot: the command is search/interfaces/commands/embedding_switch.py."""

from search.interfaces.commands.embedding_switch import Command  # noqa: F401
