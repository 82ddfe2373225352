"""`manage.py synonyms_import <workspace> <file> [--format csv|solr] [--replace]`: add synonym sets from a file.

All or nothing: every set is checked first (cms.services.synonym_set_check), then written in
one transaction that the service checks against the sets already there (two one-way sets of one
source, a multi-way set another holds whole); one bad line stops the import with its line number
and code, and nothing is written."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from cms import services
from cms.models import SynonymSet, Workspace
from cms.synonym_files import synonyms_parse


class Command(BaseCommand):
    help = "Import a workspace's synonym sets from CSV (kind,source,terms...) or Solr synonyms.txt."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("workspace", help="workspace slug")
        parser.add_argument("file", help="the file to read (- for stdin)")
        parser.add_argument("--format", choices=["csv", "solr"], default="csv")
        parser.add_argument("--replace", action="store_true", help="delete the workspace's sets first")

    def handle(self, *args, **options) -> None:
        workspace = Workspace.objects.filter(slug=options["workspace"]).first()
        if workspace is None:
            raise CommandError(f"No workspace {options['workspace']!r}.")
        text = sys.stdin.read() if options["file"] == "-" else Path(options["file"]).read_text(encoding="utf-8")
        rows = synonyms_parse(text, file_format=options["format"])
        for row in rows:
            try:
                services.synonym_set_check(kind=row.kind, terms=row.terms, source=row.source)
            except ValidationError as exc:
                raise CommandError(f"line {row.line}: {' '.join(exc.messages)} ({exc.code})") from exc
        with transaction.atomic():
            if options["replace"]:
                for synonym_set in SynonymSet.objects.for_workspace(workspace):
                    services.synonym_set_delete(synonym_set=synonym_set)
            for row in rows:
                try:
                    services.synonym_set_create(workspace=workspace, kind=row.kind, terms=row.terms, source=row.source)
                except ValidationError as exc:  # overlaps a set already there or an earlier line: nothing is kept
                    raise CommandError(f"line {row.line}: {' '.join(exc.messages)} ({exc.code})") from exc
        self.stdout.write(f"Imported {len(rows)} synonym set(s) into {workspace.slug}.")
