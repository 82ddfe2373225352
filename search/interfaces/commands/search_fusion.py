"""`manage.py search_fusion <action> <workspace>`: a workspace's hybrid fusion, chosen on its own judged queries.

Actions: show; compare --queries FILE [--qrels FILE] [--json]; pin --fusion M [--keyword-weight W]
--queries FILE --qrels FILE (or --force without them); unpin. Files as `embedding_switch
compare` reads them (search.operations.compare). The work is search.operations.fusion_pin.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from search.operations.compare import CompareInputError
from search.contract.errors import SearchError
from search.engine.legs.fusion import FUSION_METHODS, FusionSetting
from search.operations.fusion_pin import (
    compare_settings,
    fusion_compare,
    fusion_setting_parse,
    setting_name,
    workspace_fusion_pin,
    workspace_fusion_unpin,
)
from search.engine.hybrid import fusion_setting
from search.interfaces.errors import command_error_from
from search.interfaces.commands.access import access_from_options
from search.interfaces.commands.workspace_actions import (
    add_judged_queries_arguments,
    judged_queries_read,
    report_json,
    workspace_actions,
)


class Command(BaseCommand):
    help = "A workspace's hybrid fusion: show, compare settings on judged queries, pin one, unpin."

    def add_arguments(self, parser: CommandParser) -> None:
        action = workspace_actions(parser)
        action("show", "the fusion the workspace's searches use, and the pin's evidence")
        compare = action("compare", "nDCG@10 of the default and other settings on the workspace's judged queries")
        add_judged_queries_arguments(compare, required=True)
        compare.add_argument("--json", action="store_true")
        pin = action("pin", "pin a setting, if it scores at least the default on the judged queries")
        pin.add_argument("--fusion", required=True, choices=FUSION_METHODS)
        pin.add_argument("--keyword-weight", type=float, default=None,
                         help="0..1 (semantic: the complement); weighted and rrf: 0.5 when left out")
        add_judged_queries_arguments(pin, required=False)
        pin.add_argument("--force", action="store_true", help="pin without judged queries (never over a worse score)")
        action("unpin", "return the workspace to the default fusion")

    def handle(self, *args: Any, action: str, workspace: str, **options: Any) -> None:
        access = access_from_options(workspace=workspace, user=None)
        ws = access.workspace
        try:
            if action == "show":
                self._show(ws)
            elif action == "compare":
                self._compare(access, **options)
            elif action == "pin":
                self._pin(access, **options)
            else:
                previous = workspace_fusion_unpin(workspace=ws)
                self.stdout.write(f"Unpinned: {ws.slug} uses the default fusion (adaptive)"
                                  + (f"; it had {_pin_name(previous)}." if previous else "; it had no pin."))
        except CompareInputError as exc:
            raise CommandError(f"[file_invalid] {exc}") from exc
        except SearchError as exc:
            raise command_error_from(exc) from exc

    def _show(self, ws) -> None:
        setting = fusion_setting(fusion=None, keyword_weight=None, semantic_weight=None, pinned=ws.search_fusion)
        if setting.source == "default":
            self.stdout.write(f"{ws.slug}: default fusion (adaptive: per-query weights, fitted leave-one-set-out).")
        else:
            self.stdout.write(f"{ws.slug}: pinned {setting_name(setting)} "
                              f"({ws.search_fusion.get('evidence') or 'no evidence recorded'}).")

    def _compare(self, access, *, queries: str, qrels: str | None, json: bool = False, **_: Any) -> None:
        parsed_queries, parsed_qrels = judged_queries_read(queries=queries, qrels=qrels)
        pinned = access.workspace.search_fusion
        current = fusion_setting(fusion=None, keyword_weight=None, semantic_weight=None, pinned=pinned) if pinned else None
        report = fusion_compare(access=access, queries=parsed_queries, qrels=parsed_qrels,
                                settings=compare_settings(current))
        if json:
            self.stdout.write(report_json(report))
            return
        self.stdout.write(f"{access.workspace.slug}: {report['queries']} queries, {report['judged_queries']} judged")
        self.stdout.write(f"  {'setting':<16} {'nDCG@10':>8} {'top-10 overlap':>15} {'median top score':>17}")
        for row in report["settings"]:
            ndcg = f"{row['ndcg_at_10']:.4f}" if row["ndcg_at_10"] is not None else "-"
            current_mark = "  (pinned)" if current is not None and row["setting"] == setting_name(current) else ""
            self.stdout.write(f"  {row['setting']:<16} {ndcg:>8} {row['overlap_with_default']:>15.2f} "
                              f"{row['median_top_score']:>17}{current_mark}")

    def _pin(self, access, *, fusion: str, keyword_weight: float | None, queries: str | None, qrels: str | None,
             force: bool, **_: Any) -> None:
        setting: FusionSetting = fusion_setting_parse(fusion=fusion, keyword_weight=keyword_weight)
        if (queries is None) != (qrels is None):
            raise CommandError("[file_invalid] --queries and --qrels go together.")
        parsed_queries, parsed_qrels = (judged_queries_read(queries=queries, qrels=qrels) if queries
                                        else (None, None))
        outcome = workspace_fusion_pin(access=access, setting=setting, queries=parsed_queries, qrels=parsed_qrels,
                                       force=force)
        self.stdout.write(f"Pinned: {access.workspace.slug} fuses with {setting_name(setting)} "
                          f"({outcome['pin']['evidence']}).")


def _pin_name(pin: dict) -> str:
    return setting_name(fusion_setting(fusion=None, keyword_weight=None, semantic_weight=None, pinned=pin))
