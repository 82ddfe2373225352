"""`manage.py synonyms_import <workspace> <file> [--format csv|solr] [--replace]`: add synonym sets from a file.

All or nothing: every set is checked first (cms.services.synonym_set_check), then written in
one transaction that the service checks against the sets already there (two one-way sets of one
source, a multi-way set another holds whole); one bad line stops the import with its line number
and code, and nothing is written. A file that cannot be read (missing, a directory, not UTF-8, a
CSV cell over the reader's limit) is said the same way, in one line naming the file, the line and
the problem, with exit status 1."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from cms import services
from cms.models import SynonymSet, Workspace
from cms.synonym_files import SynonymFileError, synonyms_parse, synonyms_text_decode


def _file_bytes(file: str) -> bytes:
    """The file's bytes (stdin's for "-"), or CommandError in one line naming the file."""
    if file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except FileNotFoundError as exc:
        raise CommandError(f"{file}: no such file.") from exc
    except IsADirectoryError as exc:
        raise CommandError(f"{file}: is a directory; name the synonyms file in it.") from exc
    except OSError as exc:
        raise CommandError(f"{file}: cannot be read ({exc.strerror or exc}).") from exc


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
        name = "stdin" if options["file"] == "-" else options["file"]
        try:
            rows = synonyms_parse(synonyms_text_decode(_file_bytes(options["file"])), file_format=options["format"])
        except SynonymFileError as exc:
            raise CommandError(f"{name}, {exc}") from exc
        for row in rows:
            try:
                services.synonym_set_check(kind=row.kind, terms=row.terms, source=row.source)
            except ValidationError as exc:
                raise CommandError(f"{name}, line {row.line}: {' '.join(exc.messages)} ({exc.code})") from exc
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
