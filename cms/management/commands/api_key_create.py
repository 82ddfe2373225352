"""`manage.py api_key_create <workspace> --name N [--include-drafts] [--expires-in DAYS]`: a new API key, shown once."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from cms.api_keys import API_KEY_MAX_LIFETIME_DAYS, api_key_expires_at
from cms.models import Workspace
from cms.services import api_key_create


class Command(BaseCommand):
    help = "Create a workspace API key and print its secret: it is shown this once and never stored."

    def add_arguments(self, parser):
        parser.add_argument("workspace", help="workspace slug")
        parser.add_argument("--name", required=True, help="who or what uses the key, e.g. 'support bot'")
        parser.add_argument("--include-drafts", action="store_true", help="the key also sees drafts")
        parser.add_argument("--expires-in", type=int, default=None, metavar="DAYS",
                            help=f"expire after DAYS days (1 to {API_KEY_MAX_LIFETIME_DAYS})")

    def handle(self, *args, workspace: str, name: str, include_drafts: bool, expires_in: int | None, **options):
        found = Workspace.objects.filter(slug=workspace).first()
        if found is None:
            raise CommandError(f"No workspace with slug {workspace!r}.")
        try:
            expires_at = api_key_expires_at(expires_in)
            api_key, secret = api_key_create(
                workspace=found, name=name, include_drafts=include_drafts, expires_at=expires_at
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        # The secret alone on stdout, so `KEY=$(manage.py api_key_create ...)` works; the rest to stderr.
        self.stdout.write(secret)
        self.stderr.write(
            f"Created key cms_{api_key.prefix} ({api_key.name!r}) for {found.slug}: "
            f"{'drafts and published' if include_drafts else 'published content only'}, "
            f"{'expires ' + expires_at.strftime('%Y-%m-%d %H:%M UTC') if expires_at else 'no expiry'}. "
            "Store the secret now: it cannot be shown again."
        )
