"""`manage.py mcp_serve --user U`: the search tools over MCP (stdio), acting as user U."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from search.mcp_server import build_mcp_server


class Command(BaseCommand):
    help = "Serve search_entries, semantic_search and list_workspaces as MCP tools over stdio."

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True, help="The CMS user the agent acts as (its workspaces only).")

    def handle(self, *args, user: str, **options):
        account = get_user_model().objects.filter(username=user, is_active=True).first()
        if account is None:
            raise CommandError(f"No active user {user!r}: the MCP server acts as an existing CMS user.")
        # stdout carries the protocol: nothing else may be printed there.
        build_mcp_server(user=account).run("stdio")
