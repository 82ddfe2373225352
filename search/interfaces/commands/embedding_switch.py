"""`manage.py embedding_switch <action> <workspace>`: switch a workspace's embedding model without downtime.

Actions: start (--model M [--dry-run]), promote [--force], rollback, abort, prune --model OLD,
compare --queries FILE [--qrels FILE] [--model M]. It lives in `search` because `compare`
runs searches; the writes are ingestion.services.switch.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.management.commands.ingestion_status import progress_line
from ingestion.selectors import embedding_models, embedding_switch_progress
from ingestion.services import switch
from search.operations.compare import CompareInputError, embedding_compare
from search.contract.errors import SearchError
from search.interfaces.errors import command_error_from
from search.interfaces.commands.access import access_from_options
from search.interfaces.commands.workspace_actions import (
    add_judged_queries_arguments,
    judged_queries_read,
    report_json,
    workspace_actions,
)


class Command(BaseCommand):
    help = "Switch a workspace's embedding model: start, promote, rollback, abort, prune, compare, status."

    def add_arguments(self, parser: CommandParser) -> None:
        action = workspace_actions(parser)
        start = action("start", "backfill vectors of a new model beside the active one")
        aliases = ", ".join(settings.SEARCH_EMBEDDING_MODELS).replace("%", "%%")  # what --model may name
        start.add_argument("--model", required=True, help=f"model name or backend alias ({aliases})")
        start.add_argument("--dry-run", action="store_true", help="estimate texts, tokens and cost; change nothing")
        promote = action("promote", "make the target the active model (needs 100%% coverage)")
        promote.add_argument("--force", action="store_true", help="promote below 100%% coverage")
        action("rollback", "make the previous model active again")
        action("abort", "stop the backfill and delete the target's vectors")
        prune = action("prune", "delete the vectors of a model that is neither active nor target")
        prune.add_argument("--model", required=True)
        compare = action("compare", "run the same queries on the active and the target model")
        add_judged_queries_arguments(compare, required=True)
        compare.add_argument("--model", default=None, help="compare with this model (default: the target, "
                                                            "else the previous model)")
        compare.add_argument("--json", action="store_true")
        action("status", "the models and the running switch's progress")

    def handle(self, *args: Any, action: str, workspace: str, **options: Any) -> None:
        access = access_from_options(workspace=workspace, user=None)
        ws = access.workspace
        try:
            if action == "compare":
                self._compare(access, **options)
                return
            if action == "status":
                self._status(ws)
                return
            if action == "start" and options["dry_run"]:
                est = switch.embedding_switch_estimate(workspace=ws, model=options["model"])
                self.stdout.write(
                    f"Dry run: switching {ws.slug} to {est.model} would embed {est.texts} texts for {est.chunks} "
                    f"chunks ({est.reused} copied from identical texts) in {est.requests} requests: "
                    f"~{est.tokens} tokens, ~${est.cost_usd:.4f}. Nothing was changed."
                )
                return
            outcome = {
                "start": lambda: switch.embedding_switch_start(workspace=ws, model=options["model"]),
                "promote": lambda: switch.embedding_switch_promote(workspace=ws, force=options["force"]),
                "rollback": lambda: switch.embedding_switch_rollback(workspace=ws),
                "abort": lambda: switch.embedding_switch_abort(workspace=ws),
                "prune": lambda: switch.embedding_switch_prune(workspace=ws, model=options["model"]),
            }[action]()
        except switch.SwitchError as exc:
            raise command_error_from(exc) from exc
        self.stdout.write(_said(action, ws.slug, outcome))

    def _status(self, ws) -> None:
        models = embedding_models(workspace=ws)
        self.stdout.write(f"{ws.slug}: active {models.active or '(none)'}, target {models.target or '-'}, "
                          f"previous {models.previous or '-'}")
        progress = embedding_switch_progress(workspace=ws)
        if progress:
            self.stdout.write(progress_line(progress))

    def _compare(self, access, *, queries: str, qrels: str | None, model: str | None, json: bool = False,
                 **_: Any) -> None:
        models = embedding_models(workspace=access.workspace)
        other = model or models.target or models.previous
        if not other:
            raise CommandError(f"[no_model_to_compare] {access.workspace.slug} has no target or previous model; "
                               f"name one with --model.")
        if not models.active:
            raise CommandError("[not_configured] No embedding provider is configured, so no model is active.")
        try:
            parsed_queries, parsed_qrels = judged_queries_read(queries=queries, qrels=qrels)
            report = embedding_compare(access=access, queries=parsed_queries, models=(models.active, other),
                                       qrels=parsed_qrels).as_dict()
        except CompareInputError as exc:
            raise CommandError(f"[file_invalid] {exc}") from exc
        except SearchError as exc:
            raise command_error_from(exc) from exc
        if json:
            self.stdout.write(report_json(report))
            return
        active, other = report["models"]
        self.stdout.write(f"{report['queries']} queries: active {active} vs {other}")
        self.stdout.write(f"  mean top-10 overlap: {report['mean_overlap_at_10']:.2f}")
        for name in report["models"]:
            dist = report["scores"][name]
            ndcg = report["ndcg_at_10"][name]
            self.stdout.write(
                f"  {name:<24} scores min {_f(dist['min'])} p25 {_f(dist['p25'])} median {_f(dist['median'])} "
                f"p75 {_f(dist['p75'])} max {_f(dist['max'])}" + (f"  nDCG@10 {ndcg:.4f}" if ndcg is not None else "")
            )


def _said(action: str, slug: str, o: switch.SwitchOutcome) -> str:
    if action == "start":
        return (f"Started: {slug} keeps answering with {o.active} while {o.target} is backfilled "
                f"({o.reopened} chunks queued). Follow it with `ingestion_status` or `embedding_switch status`.")
    if action == "promote":
        text = f"Promoted: {slug} now answers with {o.active} ({o.previous} kept for rollback)."
        if o.missing:
            text += (f" Forced: {o.missing} of {o.chunks} chunks lack a {o.active} vector; searches miss them "
                     f"until the workers embed them.")
        return text
    if action == "rollback":
        return (f"Rolled back: {slug} answers with {o.active} again ({o.previous} kept until pruned; "
                f"{o.reopened} chunks queued).")
    if action == "abort":
        return f"Aborted: {slug} keeps {o.active}; {o.deleted} vectors of the target deleted."
    return f"Pruned: {o.deleted} vectors deleted from {slug}."


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
