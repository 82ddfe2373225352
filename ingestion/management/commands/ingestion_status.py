"""`manage.py ingestion_status`: chunk counts per workspace and model, backlog age, last error, switch progress."""

from __future__ import annotations

import json
from typing import Any

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
                f"{ws['failed']} failed" + (f", {ws['backfill']} backfilling" if ws["backfill"] else "")
                + f"; oldest pending {_age(age)}"
            )
            for counts in ws["models"]:
                role = f"({counts['role']})" if counts["role"] else ""
                self.stdout.write(
                    f"  {counts['model']:<24} {role:<10} vectors {counts['embedded']:>7}  "
                    f"missing {counts['pending']:>7}"
                )
            if ws["switch"]:
                self.stdout.write(progress_line(ws["switch"]))
            if ws["retrying"]:
                self.stdout.write(
                    f"  {ws['retrying']} waiting to retry after a provider error; next at {ws['next_retry_at']}"
                )
            if ws["last_error"]:
                self.stdout.write(f"  last error ({ws['last_error_at']}): {ws['last_error']}")


def progress_line(progress: dict[str, Any]) -> str:
    """One line of a running switch's progress (also used by embedding_switch status)."""
    eta = progress["eta_seconds"]
    eta_text = "unknown" if eta is None else f"{eta:.0f}s"
    return (f"  switch {progress['active']} -> {progress['target']}: {progress['covered']}/{progress['chunks']} "
            f"chunks ({progress['coverage_percent']:.1f}%), ETA {eta_text}, {progress['tokens']} tokens, "
            f"${progress['cost_usd']:.4f} so far")


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
