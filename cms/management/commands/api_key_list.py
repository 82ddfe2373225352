"""`manage.py api_key_list [<workspace>] [--json]`: the API keys, by prefix (never their secrets)."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from cms.models import ApiKey, Workspace
from cms.selectors import api_key_list


def _state(api_key: ApiKey) -> str:
    if api_key.revoked_at is not None:
        return "revoked"
    if api_key.expires_at is not None and api_key.expires_at <= timezone.now():
        return "expired"
    return "active"


def _when(value) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


class Command(BaseCommand):
    help = "List API keys: prefix, workspace, name, drafts, state, expiry and last use."

    def add_arguments(self, parser):
        parser.add_argument("workspace", nargs="?", default=None, help="only this workspace's keys")
        parser.add_argument("--json", action="store_true", dest="as_json", help="one JSON array instead of a table")

    def handle(self, *args, workspace: str | None, as_json: bool, **options):
        found = None
        if workspace is not None:
            found = Workspace.objects.filter(slug=workspace).first()
            if found is None:
                raise CommandError(f"No workspace with slug {workspace!r}.")
        rows = [
            {
                "prefix": f"cms_{key.prefix}",
                "workspace": key.workspace.slug,
                "name": key.name,
                "include_drafts": key.include_drafts,
                "state": _state(key),
                "created_at": _when(key.created_at),
                "expires_at": _when(key.expires_at),
                "last_used_at": _when(key.last_used_at),
            }
            for key in api_key_list(workspace=found)
        ]
        if as_json:
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
            return
        if not rows:
            self.stdout.write("No API keys.")
            return
        self.stdout.write(f"{'PREFIX':<17} {'WORKSPACE':<16} {'STATE':<8} {'DRAFTS':<6} {'EXPIRES':<20} "
                          f"{'LAST USED':<20} NAME")
        for row in rows:
            self.stdout.write(
                f"{row['prefix']:<17} {row['workspace']:<16} {row['state']:<8} {'yes' if row['include_drafts'] else 'no':<6} "
                f"{(row['expires_at'] or '-')[:19]:<20} {(row['last_used_at'] or 'never')[:19]:<20} {row['name']}"
            )
