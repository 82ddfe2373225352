"""`manage.py embedding_switch`: each action, its errors, compare, and what searches read meanwhile."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cms.access import workspace_access_for_operator
from ingestion import services
from ingestion.models import Chunk, ChunkVector
from search.operations.compare import ndcg_at_10
from search.engine.hybrid import hybrid_search
from search.engine.semantic import semantic_run, semantic_search
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.conftest import _memory_broker, fake_backend, two_models  # noqa: F401 - fixtures

ACTIVE, TARGET = "fake-hash-16", "fake-other-8"
TEXTS = ["Refunds are issued within thirty days.", "Shipping inside Japan takes three days.",
         "Gift cards never expire.", "Passwords are reset from the Security page."]


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("embedding_switch", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def content(workspace, two_models):  # noqa: F811 - the fixture imported above
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entries = [entry_make(doc, title=f"Doc {i}", body=f"<p>{text}</p>") for i, text in enumerate(TEXTS)]
    services.chunks_embed_pending()
    return entries


def test_dry_run_prints_the_estimate_and_changes_nothing(workspace, content):
    out = run("start", "acme", "--model", "other", "--dry-run")
    assert f"to {TARGET} would embed {Chunk.objects.count()} texts" in out and "tokens" in out and "$" in out
    assert not ChunkVector.objects.filter(model=TARGET).exists()
    assert "target -" in run("status", "acme")


def test_start_then_status_and_ingestion_status_show_progress(workspace, content):
    chunks = Chunk.objects.count()
    assert f"while {TARGET} is backfilled ({chunks} chunks queued)" in run("start", "acme", "--model", "other")
    assert f"0/{chunks} chunks (0.0%)" in run("status", "acme")
    services.chunks_embed_pending()
    out = io.StringIO()
    call_command("ingestion_status", "--workspace", "acme", stdout=out)
    assert f"switch {ACTIVE} -> {TARGET}: {chunks}/{chunks} chunks (100.0%), ETA 0s" in out.getvalue()
    report = io.StringIO()
    call_command("ingestion_status", "--workspace", "acme", "--json", stdout=report)
    switch = json.loads(report.getvalue())["workspaces"][0]["switch"]
    assert switch["coverage_percent"] == 100.0 and switch["tokens"] > 0 and switch["cost_usd"] >= 0


def test_searches_read_the_active_model_until_promote_and_again_after_rollback(workspace, content):
    access = workspace_access_for_operator(workspace=workspace)
    before = semantic_search(access=access, query="refund")
    run("start", "acme", "--model", "other")
    services.chunks_embed_pending()
    during = semantic_search(access=access, query="refund")
    assert (before.model, during.model) == (ACTIVE, ACTIVE)
    assert [h.id for h in during.hits] == [h.id for h in before.hits]
    run("promote", "acme")
    after = semantic_search(access=access, query="refund")
    assert after.model == TARGET and after.as_dict()["meta"]["model"] == TARGET
    assert len(after.hits) == len(before.hits)
    assert hybrid_search(access=access, query="refund").as_dict()["meta"]["model"] == TARGET
    assert "answers with fake-hash-16 again" in run("rollback", "acme")
    assert semantic_search(access=access, query="refund").model == ACTIVE


def test_promote_refuses_low_coverage_and_force_prints_what_is_missing(workspace, content):
    chunks = Chunk.objects.count()
    run("start", "acme", "--model", "other")
    services.chunks_embed_pending(limit=1)
    with pytest.raises(CommandError, match=r"\[coverage_incomplete\].*covers 1 of"):
        run("promote", "acme")
    assert f"Forced: {chunks - 1} of {chunks} chunks lack a {TARGET} vector" in run("promote", "acme", "--force")


def test_abort_and_prune_say_how_many_vectors_they_deleted(workspace, content):
    chunks = Chunk.objects.count()
    run("start", "acme", "--model", "other")
    services.chunks_embed_pending(limit=2)
    assert "2 vectors of the target deleted" in run("abort", "acme")
    run("start", "acme", "--model", "other")
    services.chunks_embed_pending()
    run("promote", "acme")
    assert f"Pruned: {chunks} vectors deleted" in run("prune", "acme", "--model", ACTIVE)


@pytest.mark.parametrize(("args", "message"), [
    (("start", "nowhere", "--model", "other"), "No workspace with slug 'nowhere'"),
    (("start", "acme", "--model", "gpt-9"), "[model_unknown] Unknown embedding model 'gpt-9'"),
    (("start", "acme", "--model", "fake"), "[model_active]"),
    (("promote", "acme"), "[no_switch]"),
    (("abort", "acme"), "[no_switch]"),
    (("rollback", "acme"), "[nothing_to_roll_back]"),
    (("prune", "acme", "--model", ACTIVE), "[model_in_use]"),
    (("prune", "acme", "--model", "voyage-3.5"), "[model_not_stored]"),
    (("compare", "acme", "--queries", "/nonexistent/q.txt"), "[no_model_to_compare]"),
    (("start", "acme"), "--model"),
    (("explode", "acme"), "invalid choice"),
])
def test_bad_input_is_a_command_error_with_a_message(workspace, content, args, message):
    with pytest.raises(CommandError) as error:
        run(*args)
    assert message in str(error.value)


def test_compare_rejects_unreadable_and_malformed_files(workspace, content, tmp_path):
    run("start", "acme", "--model", "other")
    with pytest.raises(CommandError, match=r"\[file_unreadable\]"):
        run("compare", "acme", "--queries", str(tmp_path / "missing.txt"))
    queries = tmp_path / "q.txt"
    queries.write_text("q1\trefund\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 12 very\n")
    with pytest.raises(CommandError, match=r"\[file_invalid\] Line 1: relevance 'very'"):
        run("compare", "acme", "--queries", str(queries), "--qrels", str(qrels))
    queries.write_text("# nothing\n\n")
    with pytest.raises(CommandError, match=r"\[file_invalid\] The queries file holds no query"):
        run("compare", "acme", "--queries", str(queries))


def test_compare_runs_the_same_queries_on_both_models(workspace, content, tmp_path):
    run("start", "acme", "--model", "other")
    services.chunks_embed_pending()
    refund, shipping = content[0], content[1]
    queries = tmp_path / "q.txt"
    queries.write_text("q1\trefund policy\nq2\tshipping time\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(f"q1 0 {refund.pk} 2\nq2 {shipping.pk} 1\n")
    report = json.loads(run("compare", "acme", "--queries", str(queries), "--qrels", str(qrels), "--json"))
    assert report["models"] == [ACTIVE, TARGET] and report["queries"] == 2
    access = workspace_access_for_operator(workspace=workspace)
    for row, (qid, text, judged) in zip(report["per_query"], [("q1", "refund policy", {str(refund.pk): 2}),
                                                              ("q2", "shipping time", {str(shipping.pk): 1})],
                                        strict=True):
        ranked = {m: semantic_run(access, {"query": text}, model=m).hits for m in (ACTIVE, TARGET)}
        overlap = len({h.id for h in ranked[ACTIVE]} & {h.id for h in ranked[TARGET]}) / 10
        assert (row["id"], row["overlap"]) == (qid, round(overlap, 4))
        for model, hits in ranked.items():
            docs = list(dict.fromkeys(str(h.entry_id) for h in hits))
            assert row["ndcg_at_10"][model] == round(ndcg_at_10(docs, judged), 4)
    assert set(report["scores"][ACTIVE]) == {"min", "p25", "median", "p75", "max"}
    text = run("compare", "acme", "--queries", str(queries), "--qrels", str(qrels))
    assert "mean top-10 overlap" in text and "nDCG@10" in text


def test_ndcg_is_one_for_the_ideal_ranking_and_less_for_a_worse_one():
    judged = {"a": 2, "b": 1}
    assert ndcg_at_10(["a", "b", "c"], judged) == pytest.approx(1.0)
    assert 0 < ndcg_at_10(["c", "b", "a"], judged) < ndcg_at_10(["b", "a"], judged) < 1
    assert ndcg_at_10(["c"], {}) == 0.0


def test_start_help_names_the_aliases_of_the_configured_models(settings, capsys):
    settings.SEARCH_EMBEDDING_MODELS = {alias: {"BACKEND": "ingestion.embeddings.fake.FakeEmbeddingBackend"}
                                        for alias in ("fake", "house-model", "odd%alias")}
    with pytest.raises(SystemExit):
        call_command("embedding_switch", "start", "--help")

    assert "model name or backend alias (fake, house-model, odd%alias)" in " ".join(capsys.readouterr().out.split())
