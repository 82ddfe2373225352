"""`manage.py api_key_revoke <prefix>`: revoke an API key; it is refused from the next request on."""

from django.core.management.base import BaseCommand, CommandError

from cms.selectors import api_key_get
from cms.services import api_key_revoke


class Command(BaseCommand):
    help = "Revoke an API key by its prefix (cms_<prefix>, as api_key_list shows it)."

    def add_arguments(self, parser):
        parser.add_argument("prefix", help="the key's prefix, e.g. cms_1a2b3c4d5e6f")

    def handle(self, *args, prefix: str, **options):
        api_key = api_key_get(prefix=prefix)
        if api_key is None:
            raise CommandError(f"No API key with prefix {prefix!r}; api_key_list shows them.")
        already = api_key.revoked_at is not None
        api_key_revoke(api_key=api_key)
        state = "was already revoked" if already else "is revoked"
        self.stdout.write(f"Key cms_{api_key.prefix} ({api_key.name!r}, {api_key.workspace.slug}) {state}.")
