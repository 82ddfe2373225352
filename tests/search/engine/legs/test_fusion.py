"""Fusion (issue 18): one calculation for product and bench, adaptive by default, which setting
applies (request > workspace pin > default), the `search_fusion` command with its refusals,
and agentic search fusing each part by its own features. Real database, real legs, local model."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from cms.models import Workspace
from ingestion.services import chunks_embed_pending
from search.engine.agentic import agentic_search
from search.engine.legs.fusion import (
    FUSION_ADAPTIVE,
    FEATURE_NAMES,
    FUSION_WEIGHTED,
    FusionSetting,
    NEUTRAL_WEIGHT,
    QueryFeatures,
    adaptive_weights,
    fuse_arrays,
    query_features,
)
from search.operations.fusion_pin import compare_settings, fusion_compare, setting_name
from search.engine.hybrid import hybrid_search
from tests.factories import ContentTypeFactory, full_access

pytestmark = pytest.mark.django_db

DOCS = {
    "Refund policy": "Refunds: return any unused item within 30 days of delivery for a full refund.",
    "Shipping times": "Parcels ship within two business days; international delivery takes up to two weeks.",
    "Password reset": "Reset your password from the account settings page, then sign in again.",
    "Account security": "Turn on two-step sign in to keep your account safe when a password leaks.",
    "返品について": "返品は商品到着後30日以内に受け付けます。未使用品に限り、代金を全額返金いたします。",
    "配送について": "通常配送は二営業日以内に発送します。海外配送は最大二週間かかります。",
    "Careers": "Our engineering team is hiring backend developers who enjoy databases.",
}
QUERIES = ["how do I get my money back", "refund for an unused item", "forgot my password", "返品したい",
           "when will my parcel arrive", "jobs for engineers"]


@pytest.fixture
def embedded(local_embeddings, workspace):
    from tests.factories import entry_make

    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entries = {title: entry_make(doc_type, title=title, body=f"<p>{body}</p>") for title, body in DOCS.items()}
    chunks_embed_pending(workspace=workspace)
    return entries


# --- the calculation ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_fused_scores_stay_between_0_and_1(seed):
    rng = np.random.default_rng(seed)
    n = 40
    keyword = rng.uniform(0, 30, n)
    semantic = rng.uniform(-0.2, 0.9, n)
    semantic[rng.integers(0, n, 5)] = np.nan  # chunks still waiting for their vector
    entries = rng.integers(1, 10, n)
    features = QueryFeatures(coverage=1.0, rarity=0.6, keyword_gap=0.3, semantic_spread=0.2, length=0.4, cjk=0.0)
    for setting in (FusionSetting(), FusionSetting(FUSION_WEIGHTED, 0.3, 0.7), FusionSetting(FUSION_ADAPTIVE, 0.8, 0.2)):
        fused = fuse_arrays(keyword, semantic, setting=setting, features=features, entries=entries)
        assert len(fused) == n
        assert ((fused >= 0) & (fused <= 1)).all(), setting
    # A leg that did not run is all nan: the other decides alone.
    alone = fuse_arrays(np.full(n, np.nan), semantic, setting=FusionSetting(), features=features)
    order = np.argsort(-alone, kind="stable")
    assert list(np.nan_to_num(semantic, nan=-9)[order][:10]) == sorted(np.nan_to_num(semantic, nan=-9), reverse=True)[:10]


def test_an_entry_found_by_each_leg_in_another_chunk_is_fused_as_one():
    # Entry 1: chunk A top by keywords only, chunk B top by meaning only. Entry 2: one chunk,
    # second on both legs. Per chunk, entry 2 wins; per entry, entry 1 has the best of both.
    keyword = np.array([10.0, 0.0, 8.0, 1.0, 1.0])
    semantic = np.array([0.1, 0.9, 0.8, 0.1, 0.1])
    entries = np.array([1, 1, 2, 3, 4])
    setting = FusionSetting(FUSION_ADAPTIVE, 0.5, 0.5)
    per_chunk = fuse_arrays(keyword, semantic, setting=setting, entries=entries, aggregate=False)
    per_entry = fuse_arrays(keyword, semantic, setting=setting, entries=entries, aggregate=True)
    assert per_chunk.argmax() == 2
    assert per_entry.argmax() in (0, 1)
    assert per_entry[2] == per_chunk[2]  # a one-chunk entry keeps its score
    assert min(per_entry[0], per_entry[1]) == min(per_chunk[0], per_chunk[1])  # the entry's other chunk keeps its own


def test_query_features_are_what_the_legs_read():
    f = query_features(query="返品 refund", query_terms=4, known_idfs=[2.0, 4.0], chunks=100,
                       keyword_scores=[10.0, 4.0, 0.0], semantic_scores=[0.5, 0.3, None, 0.1])
    assert f.coverage == 0.5
    assert f.rarity == pytest.approx(3.0 / math.log(101))
    assert f.keyword_gap == pytest.approx(0.6)
    assert f.semantic_spread == pytest.approx(0.5 - 0.3)
    assert 0 < f.length < 1
    assert f.cjk == pytest.approx(2 / 8)


# --- which setting applies -------------------------------------------------------------------------

def test_default_is_adaptive_with_the_querys_own_weights(embedded, workspace):
    for query in QUERIES:
        result = hybrid_search(access=full_access(workspace), query=query, top_k=10)
        meta = result.extra_meta
        assert meta["fusion"] == "adaptive"
        assert meta["weights"]["source"] == "default"
        assert result.hits
        assert all(0 <= hit.score <= 1 for hit in result.hits)
        assert [hit.score for hit in result.hits] == sorted((hit.score for hit in result.hits), reverse=True)
    # The weights follow each query's features: not one pair for every query.
    weights = {tuple(hybrid_search(access=full_access(workspace), query=q).extra_meta["weights"].values())[:2]
               for q in QUERIES}
    assert len(weights) > 1


def test_weights_source_precedence(embedded, workspace):
    access = full_access(workspace)
    workspace.search_fusion = {"fusion": "weighted", "keyword_weight": 0.2, "semantic_weight": 0.8, "evidence": "t"}
    workspace.save(update_fields=["search_fusion"])
    access = full_access(Workspace.objects.get(pk=workspace.pk))
    pinned = hybrid_search(access=access, query="refund for an unused item").extra_meta
    assert (pinned["fusion"], pinned["weights"]) == ("weighted", {"keyword": 0.2, "semantic": 0.8,
                                                                  "source": "workspace"})
    asked = hybrid_search(access=access, query="refund for an unused item", keyword_weight=0.7).extra_meta
    assert (asked["fusion"], asked["weights"]) == ("weighted", {"keyword": 0.7, "semantic": 0.3, "source": "request"})
    asked = hybrid_search(access=access, query="refund for an unused item", fusion="adaptive").extra_meta
    assert (asked["fusion"], asked["weights"]["source"]) == ("adaptive", "request")
    workspace.search_fusion = None
    workspace.save(update_fields=["search_fusion"])
    default = hybrid_search(access=full_access(Workspace.objects.get(pk=workspace.pk)),
                            query="refund for an unused item").extra_meta
    assert (default["fusion"], default["weights"]["source"]) == ("adaptive", "default")


def test_pinned_fusion_costs_no_extra_query(embedded, workspace, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    access = full_access(workspace)
    hybrid_search(access=access, query="refund")  # warm up
    with CaptureQueriesContext(connection) as plain:
        hybrid_search(access=access, query="refund")
    workspace.search_fusion = {"fusion": "rrf", "keyword_weight": 0.5, "semantic_weight": 0.5, "evidence": "t"}
    with CaptureQueriesContext(connection) as pinned:
        result = hybrid_search(access=full_access(workspace), query="refund")
    assert result.extra_meta["weights"]["source"] == "workspace"
    assert len(pinned.captured_queries) == len(plain.captured_queries)


# --- the command ------------------------------------------------------------------------------------

def run(*args) -> str:
    out = io.StringIO()
    call_command("search_fusion", *args, stdout=out)
    return out.getvalue()


def judged_files(tmp_path, workspace, entries, judge) -> tuple[str, str]:
    """Queries, and qrels naming as relevant, per query, the top entry of the setting `judge`."""
    queries = [(str(i), q) for i, q in enumerate(QUERIES)]
    report_tops = {}
    from search.engine.hybrid import chunk_filter, hybrid_collect
    from search.engine.legs.fusion import fuse

    access = full_access(workspace)
    where = chunk_filter(access=access, content_type=None, spec=None)
    for qid, query in queries:
        collected = hybrid_collect(workspace_id=workspace.pk, query=query, where=where, depth=50, keyword_leg=True,
                                   semantic_leg=True, ef_search=64)
        ranked = fuse(list(collected.candidates.values()), setting=judge, features=collected.features)
        report_tops[qid] = collected.hits[ranked[0].chunk_id].entry_id
    qpath, rpath = tmp_path / "queries.tsv", tmp_path / "qrels.txt"
    qpath.write_text("".join(f"{qid}\t{q}\n" for qid, q in queries), encoding="utf-8")
    rpath.write_text("".join(f"{qid} {entry} 1\n" for qid, entry in report_tops.items()), encoding="utf-8")
    return str(qpath), str(rpath)


def test_compare_prints_every_setting_on_judged_queries(embedded, workspace, tmp_path):
    queries, qrels = judged_files(tmp_path, workspace, embedded, FusionSetting())
    out = run("compare", workspace.slug, "--queries", queries, "--qrels", qrels)
    assert f"{len(QUERIES)} queries, {len(QUERIES)} judged" in out
    for setting in compare_settings():
        assert setting_name(setting) in out
    # Judged by the default's own top entry, the default scores 1.
    assert "adaptive" in out and " 1.0000 " in out.split("adaptive", 1)[1].splitlines()[0] + " "


def test_pin_refusals_and_pin_unpin(embedded, workspace, tmp_path):
    # Judged by the default's top entries: the default scores 1.0, and a setting that differs on
    # any query scores less.
    queries, qrels = judged_files(tmp_path, workspace, embedded, FusionSetting())
    from search.operations.compare import qrels_parse, queries_parse

    report = fusion_compare(access=full_access(workspace), queries=queries_parse(open(queries).read()),
                            qrels=qrels_parse(open(qrels).read()), settings=compare_settings())
    rows = {row["setting"]: row["ndcg_at_10"] for row in report["settings"]}
    assert rows["adaptive"] == 1.0
    worse = next(name for name, score in rows.items() if score < 1.0)
    method, _, weight = worse.partition(" kw")
    with pytest.raises(CommandError, match=r"\[pin_worse_than_default\]"):
        run("pin", workspace.slug, "--fusion", method, "--keyword-weight", weight, "--queries", queries,
            "--qrels", qrels)
    with pytest.raises(CommandError, match=r"\[pin_worse_than_default\]"):  # --force never overrides evidence
        run("pin", workspace.slug, "--fusion", method, "--keyword-weight", weight, "--queries", queries,
            "--qrels", qrels, "--force")
    with pytest.raises(CommandError, match=r"\[no_evidence\]"):
        run("pin", workspace.slug, "--fusion", "weighted", "--keyword-weight", "0.3")
    workspace.refresh_from_db()
    assert workspace.search_fusion is None

    out = run("pin", workspace.slug, "--fusion", "weighted", "--keyword-weight", "0.3", "--force")
    assert "Pinned" in out
    workspace.refresh_from_db()
    assert workspace.search_fusion["fusion"] == "weighted" and workspace.search_fusion["keyword_weight"] == 0.3
    assert "weighted kw0.3" in run("show", workspace.slug)
    meta = hybrid_search(access=full_access(workspace), query="refund").extra_meta
    assert meta["weights"] == {"keyword": 0.3, "semantic": 0.7, "source": "workspace"}

    # A setting at least as good as the default on the evidence is pinned, with the evidence kept.
    best_queries, best_qrels = judged_files(tmp_path, workspace, embedded, FusionSetting(FUSION_WEIGHTED, 0.5, 0.5))
    out = run("pin", workspace.slug, "--fusion", "weighted", "--keyword-weight", "0.5", "--queries", best_queries,
              "--qrels", best_qrels)
    assert "nDCG@10 1.0000 vs default" in out
    workspace.refresh_from_db()
    assert workspace.search_fusion["keyword_weight"] == 0.5

    assert "it had weighted kw0.5" in run("unpin", workspace.slug)
    workspace.refresh_from_db()
    assert workspace.search_fusion is None
    assert "default fusion" in run("show", workspace.slug)
    with pytest.raises(CommandError, match=r"\[pin_is_default\]"):
        run("pin", workspace.slug, "--fusion", "adaptive", "--force")


# --- agentic: the same fusion per part --------------------------------------------------------------

def test_agentic_fuses_each_part_with_its_own_features(embedded, workspace):
    parts = ["refund for an unused item", "返品したい"]
    result = agentic_search(access=full_access(workspace), query=" ".join(parts), queries=parts, top_k=6)
    meta = result.extra_meta
    assert meta["path"] == "agentic" and meta["fusion"] == "adaptive"
    assert all(0 <= hit.score <= 1 for hit in result.hits)
    for part, part_meta in zip(parts, meta["part_results"]):
        alone = hybrid_search(access=full_access(workspace), query=part).extra_meta
        # The same fusion and the same per-query weights as a hybrid search of the part alone
        # (within float noise: the parts' vectors are made in one batch, the part alone's singly).
        assert part_meta["weights"]["source"] == alone["weights"]["source"]
        for leg in ("keyword", "semantic"):
            assert part_meta["weights"][leg] == pytest.approx(alone["weights"][leg], abs=1e-4)
        keyword, semantic = part_meta["weights"]["keyword"], part_meta["weights"]["semantic"]
        assert part_meta["weights"]["source"] == "default"
        assert keyword >= 0 and semantic >= 0
    assert meta["part_results"][0]["weights"] != meta["part_results"][1]["weights"]


def test_agentic_follows_the_workspace_pin(embedded, workspace):
    workspace.search_fusion = {"fusion": "weighted", "keyword_weight": 0.4, "semantic_weight": 0.6, "evidence": "t"}
    parts = ["refund for an unused item", "forgot my password"]
    meta = agentic_search(access=full_access(workspace), query=" ".join(parts), queries=parts).extra_meta
    assert all(p["weights"] == {"keyword": 0.4, "semantic": 0.6, "source": "workspace"} for p in meta["part_results"])


def test_adaptive_weights_match_meta(embedded, workspace):
    from search.engine.hybrid import chunk_filter, hybrid_collect

    access = full_access(workspace)
    collected = hybrid_collect(workspace_id=workspace.pk, query="forgot my password",
                               where=chunk_filter(access=access, content_type=None, spec=None), depth=50,
                               keyword_leg=True, semantic_leg=True, ef_search=64)
    keyword, semantic = adaptive_weights(collected.features)
    meta = hybrid_search(access=access, query="forgot my password").extra_meta
    assert meta["weights"]["keyword"] == pytest.approx(keyword, abs=1e-6)
    assert meta["weights"]["semantic"] == pytest.approx(semantic, abs=1e-6)


def test_each_embedding_model_is_fused_with_its_own_fit(embedded, workspace, monkeypatch):
    """ADAPTIVE_BY_MODEL: a workspace whose vectors are of a model fitted apart is fused with
    that model's coefficients (here one that trusts the semantic leg alone); others keep the default."""
    from search.engine.legs import fusion

    access = full_access(workspace)
    default = hybrid_search(access=access, query="forgot my password").extra_meta["weights"]
    assert default["keyword"] > 0
    model = hybrid_search(access=access, query="forgot my password").model
    semantic_only = (0.0, (0.0,) * len(FEATURE_NAMES), (1.0,) + (0.0,) * (len(FEATURE_NAMES) - 1))
    monkeypatch.setattr(fusion, "ADAPTIVE_BY_MODEL", {model: semantic_only})
    result = hybrid_search(access=access, query="forgot my password", top_k=5)
    assert (result.extra_meta["weights"]["keyword"], result.extra_meta["weights"]["semantic"]) == (0.0, 1.0)
    semantic_order = sorted(result.hits, key=lambda hit: -hit.legs["semantic"]["score"])
    assert [hit.id for hit in result.hits] == [hit.id for hit in semantic_order]
    monkeypatch.setattr(fusion, "ADAPTIVE_BY_MODEL", {"another-model": semantic_only})
    assert hybrid_search(access=access, query="forgot my password").extra_meta["weights"] == default


def test_both_legs_first_is_first_even_where_the_model_gives_no_weight(embedded, workspace):
    # Found in the product: for 返品 in this small workspace (one keyword match far above the
    # rest, all CJK, one term) both fitted weights fall below 0; clamped to 0, every candidate
    # fused to 0.5 and came back in chunk-id order, the only exact match fifth, though both
    # legs ranked it first.
    for query, title in (("返品", "返品について"), ("配送", "配送について")):
        # include_candidates: the ranking under the first row is what this checks, and rows below the
        # confidence floor are candidates now, returned only on request (issue #51).
        result = hybrid_search(access=full_access(workspace), query=query, top_k=6, include_candidates=True)
        legs = result.hits[0].legs
        assert result.hits[0].title == title
        assert legs["keyword"]["rank"] == 1 and legs["semantic"]["rank"] == 1
        assert len({hit.score for hit in result.hits}) > 1  # a ranking, not one score for all
        weights = result.extra_meta["weights"]
        assert weights["keyword"] > 0 or weights["semantic"] > 0


def test_fitted_weights_both_below_zero_fall_back_to_the_legs_alike():
    features = QueryFeatures(coverage=1.0, rarity=1.0, keyword_gap=1.0, semantic_spread=0.0, length=0.0, cjk=1.0)
    negative = (0.0, (-1.0,) * 7, (-1.0,) * 7)
    assert adaptive_weights(features, model=negative) == (NEUTRAL_WEIGHT, NEUTRAL_WEIGHT)
    assert adaptive_weights(features, model=negative, semantic_ran=False) == (NEUTRAL_WEIGHT, 0.0)
    keyword = np.array([5.0, 1.0, 0.5])
    semantic = np.array([0.2, 0.6, 0.1])
    fused = fuse_arrays(keyword, semantic, setting=FusionSetting(), features=features, model=negative)
    assert len(set(fused.round(9))) == 3  # ranked by both legs' z-scores, summed
    only_keyword = fuse_arrays(keyword, np.full(3, np.nan), setting=FusionSetting(), features=features,
                               model=negative)
    assert list(np.argsort(-only_keyword)) == [0, 1, 2]


@pytest.mark.parametrize("legs", [
    dict(coverage=1.0, rarity=0.6, keyword_gap=0.4, semantic_spread=0.05),  # a clear keyword winner
    dict(coverage=0.5, rarity=0.3, keyword_gap=0.02, semantic_spread=0.25),  # a paraphrase: vectors sure
])
def test_the_default_weighs_a_query_by_its_legs_not_its_script_or_length(legs):
    # The same legs' evidence in an English question and in a Japanese one (CJK, and counted
    # in character pairs, so "longer"): the default gives both the same weights. Fits that read
    # script and length gave the Japanese one more keyword weight, which lost 0.013-0.022
    # nDCG@10 on English FAQs scored as if Japanese (bench/fusion_fit.py's script swap): what a
    # Japanese FAQ, where meaning beats keywords, would have paid.
    english = QueryFeatures(**legs, length=0.45, cjk=0.0)
    japanese = QueryFeatures(**legs, length=0.95, cjk=1.0)
    assert adaptive_weights(english) == adaptive_weights(japanese)
    keyword, semantic = adaptive_weights(english)
    assert keyword > 0 and semantic > 0


def test_the_default_leans_on_the_leg_that_is_sure():
    keyword_sure = QueryFeatures(coverage=1.0, rarity=0.6, keyword_gap=0.4, semantic_spread=0.02)
    vectors_sure = QueryFeatures(coverage=0.5, rarity=0.3, keyword_gap=0.02, semantic_spread=0.3)
    k1, s1 = adaptive_weights(keyword_sure)
    k2, s2 = adaptive_weights(vectors_sure)
    assert k1 / (k1 + s1) > k2 / (k2 + s2)
