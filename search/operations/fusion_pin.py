"""A workspace's own hybrid fusion: compare settings on its judged queries, pin one, unpin it.

`fusion_compare` runs each judged query's two legs once (`hybrid_collect`, exactly as a hybrid
search does) and ranks the candidates with every setting through the product's `fuse`, so
the figures are the searches the workspace would get. A pin is stored on
`Workspace.search_fusion` and applies to every hybrid and agentic search of the workspace
that names no fusion or weights of its own (request > workspace pin > default).

`fusion_pin` keeps the default honest: a setting that scores below the default on the
workspace's judged queries is refused (`pin_worse_than_default`), and pinning without judged
queries needs `force` (`no_evidence`).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from cms.access import WorkspaceAccess
from cms.models import Workspace
from search.operations.compare import ndcg_at_10
from search.contract.errors import SearchError, SearchInputError
from search.engine.legs.fusion import FUSION_ADAPTIVE, FUSION_METHODS, FUSION_RRF, FUSION_WEIGHTED, FusionSetting, fuse
from search.engine.hybrid import CANDIDATE_DEPTH, chunk_filter, hybrid_collect
from search.engine.legs.vector_leg import DEFAULT_EF_SEARCH

TOP_K = 10


class FusionPinError(SearchError):
    """A pin refused: worse than the default, no evidence, or an invalid setting."""


def setting_name(setting: FusionSetting) -> str:
    if not setting.fixed:
        return setting.method
    keyword, _ = setting.weights()
    return f"{setting.method} kw{keyword:g}"


def fusion_setting_parse(*, fusion: str, keyword_weight: float | None = None) -> FusionSetting:
    """A setting an operator names: a method, and for weighted/rrf a keyword weight (semantic: its complement)."""
    if fusion not in FUSION_METHODS:
        raise SearchInputError("fusion_invalid", f"fusion must be one of {', '.join(FUSION_METHODS)}, not {fusion!r}.")
    if keyword_weight is not None and not 0 <= keyword_weight <= 1:
        raise SearchInputError("keyword_weight_out_of_range", "keyword_weight must be between 0 and 1.")
    if keyword_weight is None:
        return FusionSetting(method=fusion, source="workspace")
    return FusionSetting(method=fusion, keyword_weight=keyword_weight, semantic_weight=round(1 - keyword_weight, 6),
                         source="workspace")


def compare_settings(current: FusionSetting | None = None) -> list[FusionSetting]:
    """What `compare` measures: the default, weighted and rrf at keyword weights 0.1 .. 0.9, and the current pin."""
    settings = [FusionSetting(method=FUSION_ADAPTIVE)]
    settings += [fusion_setting_parse(fusion=FUSION_WEIGHTED, keyword_weight=w / 10) for w in range(1, 10)]
    settings += [fusion_setting_parse(fusion=FUSION_RRF, keyword_weight=0.5)]
    if current is not None and setting_name(current) not in {setting_name(s) for s in settings}:
        settings.append(current)
    return settings


@dataclass
class SettingFigures:
    name: str
    ndcg: list[float] = field(default_factory=list)
    top_scores: list[float] = field(default_factory=list)

    def mean_ndcg(self) -> float | None:
        return round(statistics.fmean(self.ndcg), 4) if self.ndcg else None


def fusion_compare(*, access: WorkspaceAccess, queries: list[tuple[str, str]],
                   qrels: dict[str, dict[str, int]] | None, settings: list[FusionSetting]) -> dict[str, Any]:
    """nDCG@10 of each setting over the judged queries (documents = entries, as `embedding_switch
    compare`), and each setting's top-10 overlap with the default's."""
    where = chunk_filter(access=access, content_type=None, spec=None)
    figures = [SettingFigures(setting_name(s)) for s in settings]
    overlaps: list[list[float]] = [[] for _ in settings]
    judged = 0
    for qid, query in queries:
        collected = hybrid_collect(workspace_id=access.workspace.pk, query=query, where=where, depth=CANDIDATE_DEPTH,
                                   keyword_leg=True, semantic_leg=True,
                                   ef_search=max(DEFAULT_EF_SEARCH, CANDIDATE_DEPTH))
        tops = []
        for setting, fig in zip(settings, figures):
            ranked = fuse([_copy(c) for c in collected.candidates.values()], setting=setting,
                          features=collected.features)
            docs: list[str] = []
            for c in ranked:
                hit = collected.hits[c.chunk_id]
                doc = str(hit.entry_id) if hit.entry_id is not None else f"asset:{hit.asset_id}"
                if doc not in docs:
                    docs.append(doc)
            tops.append({c.chunk_id for c in ranked[:TOP_K]})
            if ranked:
                fig.top_scores.append(ranked[0].fused)
            if qrels is not None and qid in qrels:
                fig.ndcg.append(ndcg_at_10(docs, qrels[qid]))
        if qrels is not None and qid in qrels:
            judged += 1
        for i, top in enumerate(tops):
            overlaps[i].append(len(top & tops[0]) / TOP_K)
    return {
        "queries": len(queries),
        "judged_queries": judged,
        "settings": [
            {"setting": fig.name, "ndcg_at_10": fig.mean_ndcg(),
             "overlap_with_default": round(statistics.fmean(o), 4) if o else None,
             "median_top_score": round(statistics.median(fig.top_scores), 4) if fig.top_scores else None}
            for fig, o in zip(figures, overlaps)
        ],
    }


def _copy(candidate):
    from dataclasses import replace

    return replace(candidate)


@transaction.atomic
def workspace_fusion_pin(*, access: WorkspaceAccess, setting: FusionSetting, queries: list[tuple[str, str]] | None,
                         qrels: dict[str, dict[str, int]] | None, force: bool = False) -> dict[str, Any]:
    """Pin `setting` on the workspace after checking it against the default on its judged queries.

    Refused with `no_evidence` when there are no judged queries (unless `force`), and with
    `pin_worse_than_default` when it scores below the default (force does not override that:
    a worse setting is never pinned on evidence that says so). Returns the stored pin.
    """
    default = FusionSetting(method=FUSION_ADAPTIVE)
    if setting.method == FUSION_ADAPTIVE and not setting.fixed:
        raise FusionPinError("pin_is_default", "That is the default; `unpin` returns the workspace to it.")
    evidence: str
    report = None
    if queries and qrels and any(qid in qrels for qid, _ in queries):
        report = fusion_compare(access=access, queries=queries, qrels=qrels, settings=[default, setting])
        base, pinned = (row["ndcg_at_10"] for row in report["settings"])
        if pinned < base:
            raise FusionPinError(
                "pin_worse_than_default",
                f"{setting_name(setting)} scores nDCG@10 {pinned:.4f} on {report['judged_queries']} judged queries, "
                f"below the default's {base:.4f}: not pinned.", status=409)
        evidence = (f"nDCG@10 {pinned:.4f} vs default {base:.4f} on {report['judged_queries']} judged queries, "
                    f"{timezone.now():%Y-%m-%d}")
    elif not force:
        raise FusionPinError("no_evidence", "No judged queries to compare it with the default (give --queries and "
                             "--qrels), so it is not pinned; --force pins it anyway.", status=409)
    else:
        evidence = f"forced without judged queries, {timezone.now():%Y-%m-%d}"
    keyword, semantic = setting.weights() if setting.fixed else (None, None)
    pin = {"fusion": setting.method, "keyword_weight": keyword, "semantic_weight": semantic, "evidence": evidence}
    workspace = Workspace.objects.select_for_update().get(pk=access.workspace.pk)
    workspace.search_fusion = pin
    workspace.save(update_fields=["search_fusion"])
    access.workspace.search_fusion = pin
    return {"pin": pin, "report": report}


@transaction.atomic
def workspace_fusion_unpin(*, workspace: Workspace) -> dict[str, Any] | None:
    """Return the workspace to the default fusion; the pin it had (None if none)."""
    locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
    previous = locked.search_fusion
    locked.search_fusion = None
    locked.save(update_fields=["search_fusion"])
    workspace.search_fusion = None
    return previous
