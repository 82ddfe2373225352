"""`manage.py mcp_serve --api-key KEY`: the search tools over MCP (stdio), for one workspace.

The key decides the workspace and whether drafts are visible; `--user U --workspace W` lets
an operator act as a CMS user instead. Either way the caller is checked again at every
tool call.
"""

import os

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.http import Http404

from search.interfaces.mcp.server import Caller, CallerRefused, api_key_caller, build_mcp_server, user_caller
from search.operations.preload import query_side_preload_started, workspace_query_side_preload

API_KEY_ENV = "CMS_API_KEY"


class Command(BaseCommand):
    help = (
        "Serve list_content_types, search_entries and semantic_search as MCP tools over stdio, for the "
        f"workspace of an API key (--api-key, or the {API_KEY_ENV} environment variable)."
    )
    # An MCP client over stdio starts this command once per session: no system checks (the URL
    # check alone imports every admin view), as gunicorn's and Celery's processes run none;
    # `manage.py check` runs them. manage.py starts it without the admin (config/admin_site.py).
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--api-key", default=None, metavar="KEY",
            help=f"a workspace API key (cms_...). The {API_KEY_ENV} environment variable keeps it out of "
            "the process list.",
        )
        parser.add_argument("--user", default=None, help="operators: act as this CMS user (their role) instead")
        parser.add_argument("--workspace", default=None, help="the workspace slug; required with --user")

    def handle(self, *args, api_key: str | None, user: str | None, workspace: str | None, **options):
        caller = self._caller(api_key=api_key, user=user, workspace=workspace)
        try:
            access = caller()  # refuse to start for a caller the first tool call would refuse
        except CallerRefused as refused:
            raise CommandError(refused.message) from refused
        except Http404 as missing:
            raise CommandError(f"User {user!r} may not search workspace {workspace!r}, or it does not exist.") from missing
        finally:
            connection.close()
        # The workspace's model and confidence background load on a thread while the client
        # connects, not in its first semantic or hybrid tool call (EMBEDDING_WORKER_PRELOAD).
        query_side_preload_started(workspace_query_side_preload, access.workspace.pk)
        # stdout carries the protocol: nothing else may be printed there (the log goes to stderr).
        build_mcp_server(caller=caller).run("stdio")

    def _caller(self, *, api_key: str | None, user: str | None, workspace: str | None) -> Caller:
        if user is not None:
            if api_key is not None:
                raise CommandError("Give --api-key or --user, not both.")
            if not workspace:
                raise CommandError("--user needs --workspace: the tools search one workspace, never one they are told.")
            return user_caller(username=user, workspace=workspace)
        if workspace is not None:
            raise CommandError("--workspace goes with --user; an API key already names its workspace.")
        api_key = api_key or os.environ.get(API_KEY_ENV, "")
        if not api_key:
            raise CommandError(f"Give --api-key KEY (or set {API_KEY_ENV}); operators may use --user U --workspace W.")
        return api_key_caller(api_key)
