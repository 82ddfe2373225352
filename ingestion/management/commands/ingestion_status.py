"""`manage.py ingestion_status`: the live workers, chunk counts per workspace and model, backlog age, last error, switch progress."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand

from ingestion.management.scope import workspace_from_option
from ingestion.selectors import ingestion_status
from ingestion.worker_status import WorkerStatus, worker_status


class Command(BaseCommand):
    help = "Live workers; pending, embedded and failed chunks per workspace and model; the provider's state."

    def add_arguments(self, parser):
        parser.add_argument("--workspace", metavar="SLUG", help="Only this workspace.")
        parser.add_argument("--json", action="store_true", help="Print JSON.")

    def handle(self, *args, workspace=None, json=False, verbosity=1, **options):
        scope = workspace_from_option(workspace)
        report = ingestion_status(workspace=scope)
        workers = worker_status(workspace=scope, count=True)
        if json:
            self.stdout.write(_json_dumps({**report, "workers": workers_report(workers)}))
            return
        provider = report["provider"]
        if provider["configured"]:
            self.stdout.write(f"Provider: {provider['provider']} ({provider['model']}, {provider['dimensions']} dimensions)")
        else:
            self.stdout.write(f"Provider: {provider['code']} - {provider['message']}")
        for line in workers_lines(workers):
            self.stdout.write(line)
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


def workers_report(status: WorkerStatus) -> dict[str, Any]:
    """The workers and the queue's head, as --json prints them."""
    return {"alive": [w.as_dict() for w in status.alive], "gone": [w.as_dict() for w in status.gone],
            "pending": status.pending, "oldest_pending_seconds": status.oldest_pending_seconds,
            "unserved": status.unserved}


def workers_lines(status: WorkerStatus) -> list[str]:
    lines = [f"Workers: {len(status.alive)} alive" + (
        f"; NONE consumes the {' or '.join(status.unserved)} queue, where chunks wait" if status.unserved else "")]
    for worker in status.workers:
        state = "alive" if worker.alive else ("stopped" if worker.stopped else "gone")
        lines.append(f"  {worker.name:<32} {state:<8} seen {_age(worker.seen_seconds_ago)} ago  "
                     f"queues {', '.join(worker.queues)}")
    if status.pending:
        lines.append(f"Pending: {status.pending} chunks, the oldest waiting {_age(status.oldest_pending_seconds)}")
    return lines


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
