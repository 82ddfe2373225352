"""`manage.py synonyms_export <workspace> [--format csv|solr]`: a workspace's synonym sets, on stdout."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cms.models import SynonymSet, Workspace
from cms.synonym_files import synonyms_render


class Command(BaseCommand):
    help = "Export a workspace's synonym sets as CSV (kind,source,terms...) or Solr synonyms.txt."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("workspace", help="workspace slug")
        parser.add_argument("--format", choices=["csv", "solr"], default="csv")

    def handle(self, *args, **options) -> None:
        workspace = Workspace.objects.filter(slug=options["workspace"]).first()
        if workspace is None:
            raise CommandError(f"No workspace {options['workspace']!r}.")
        sets = [(s.kind, s.source, list(s.terms)) for s in SynonymSet.objects.for_workspace(workspace)]
        self.stdout.write(synonyms_render(sets, file_format=options["format"]), ending="")
