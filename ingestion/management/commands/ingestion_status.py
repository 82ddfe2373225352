"""`manage.py ingestion_status`: chunk counts per workspace and model, backlog age, last error."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from ingestion.management.scope import workspace_from_option
from ingestion.selectors import ingestion_status


class Command(BaseCommand):
    help = "Pending, embedded and failed chunks per workspace and model; the provider's state."

    def add_arguments(self, parser):
        parser.add_argument("--workspace", metavar="SLUG", help="Only this workspace.")
        parser.add_argument("--json", action="store_true", help="Print JSON.")

    def handle(self, *args, workspace=None, json=False, verbosity=1, **options):
        report = ingestion_status(workspace=workspace_from_option(workspace))
        if json:
            self.stdout.write(_json_dumps(report))
            return
        provider = report["provider"]
        if provider["configured"]:
            self.stdout.write(f"Provider: {provider['provider']} ({provider['model']}, {provider['dimensions']} dimensions)")
        else:
            self.stdout.write(f"Provider: {provider['code']} - {provider['message']}")
        if not report["workspaces"]:
            self.stdout.write("No chunks.")
        for ws in report["workspaces"]:
            age = ws["oldest_pending_seconds"]
            self.stdout.write(
                f"{ws['workspace']}: {ws['pending']} pending ({ws['leased']} being embedded), {ws['embedded']} embedded, "
                f"{ws['failed']} failed; oldest pending {_age(age)}"
            )
            for counts in ws["models"]:
                self.stdout.write(
                    f"  {counts['model'] or '(no model)':<28} pending {counts['pending']:>7}  "
                    f"embedded {counts['embedded']:>7}  failed {counts['failed']:>7}"
                )
            if ws["retrying"]:
                self.stdout.write(
                    f"  {ws['retrying']} waiting to retry after a provider error; next at {ws['next_retry_at']}"
                )
            if ws["last_error"]:
                self.stdout.write(f"  last error ({ws['last_error_at']}): {ws['last_error']}")


def _age(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 120:
        return f"{seconds:.0f}s"
    if seconds < 7200:
        return f"{seconds / 60:.0f}m"
    return f"{seconds / 3600:.1f}h"


def _json_dumps(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2)
