"""A model switch run by real Celery workers: searches during the backfill, a worker killed
mid-backfill, and edits made while it runs.

The workers are subprocesses on the test database and the filesystem broker (the fixtures
of test_worker.py). The second model is tests.ingestion.worker_backends.OtherFakeBackend
(8 dimensions), registered in the workers through EMBEDDING_BACKENDS_EXTRA; it logs every
request to a marker file, so the test counts what the provider was asked across processes.
"""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from cms import services as cms_services
from cms.access import workspace_access_for_operator
from ingestion import selectors, services
from ingestion.models import Chunk, ChunkVector, EmbeddingUsage
from ingestion.services import switch
from search.engine.hybrid import hybrid_search
from search.engine.semantic import semantic_search
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.conftest import current_vector, use_backend
from tests.ingestion.worker_backends import EXTRA, OTHER, OtherFakeBackend, other_model  # noqa: F401 - fixture
from tests.ingestion.worker_support import wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True),
              pytest.mark.parametrize("broker", ["filesystem"], indirect=True)]

TOPICS = ["refund", "shipping", "password", "gift card", "warranty", "invoice", "delivery", "account",
          "discount", "subscription"]


def vector_counts(workspace) -> dict[str, int]:
    return {m: ChunkVector.objects.filter(workspace=workspace, model=m).count()
            for m in ("use-multilingual-v3", OTHER)}


def marker_requests(marker) -> list[dict]:
    """Every request the second model received: {"pid", "texts"}, in order."""
    if not marker.exists():
        return []
    return [json.loads(line) for line in marker.read_text().splitlines()]


def marker_texts(marker) -> int:
    return sum(len(r["texts"]) for r in marker_requests(marker))


class Searcher(threading.Thread):
    """Runs semantic and hybrid searches in a loop, recording each answer's model, size and
    the dimensions of every hit's vector (vectors of two models never share a dimension)."""

    def __init__(self, workspace):
        super().__init__(daemon=True)
        self.access = workspace_access_for_operator(workspace=workspace)
        self.stop = threading.Event()
        self.answers: list[tuple[str, str, str, int, set[int]]] = []
        self.errors: list[BaseException] = []
        self.covered: list[int] = []  # the target's vector count at each round of searches

    def search(self, topic: str) -> list[tuple[str, str, str, int, set[int]]]:
        semantic = semantic_search(access=self.access, query=topic, include_vectors=True)
        hybrid = hybrid_search(access=self.access, query=topic, include_vectors=True)
        return [
            ("semantic", topic, semantic.model, len(semantic.hits), {len(h.vector) for h in semantic.hits}),
            ("hybrid", topic, hybrid.model, len(hybrid.hits),
             {len(h.vector) for h in hybrid.hits if h.vector is not None}),
        ]

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.covered.append(ChunkVector.objects.filter(model=OTHER).count())
                for topic in TOPICS:
                    self.answers.extend(self.search(topic))
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)
        finally:
            connection.close()

    def finish(self) -> list[tuple[str, str, str, int, set[int]]]:
        self.stop.set()
        self.join(timeout=60)
        assert not self.errors, self.errors
        answers, self.answers = self.answers, []
        return answers


def test_switch_local_to_a_second_model_while_searches_run(workspace, workers, settings, other_model, tmp_path):
    use_backend(settings, "ingestion.embeddings.local.LocalEmbeddingBackend")
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(40):
        topic = TOPICS[i % len(TOPICS)]
        entry_make(doc, title=f"{topic.title()} note {i}", body=f"<p>About {topic}: case number {i}.</p>")
    services.chunks_embed_pending()
    chunks = Chunk.objects.count()
    assert vector_counts(workspace) == {"use-multilingual-v3": chunks, OTHER: 0}
    searcher = Searcher(workspace)
    baseline = {(kind, topic): returned for t in TOPICS for kind, topic, _, returned, _ in searcher.search(t)}

    def check(answers, *, model: str, dimensions: int) -> None:
        assert answers
        for kind, topic, answered_by, returned, dims in answers:
            assert answered_by == model, (kind, topic, answered_by)
            assert dims == {dimensions}, (kind, topic, dims)  # every hit's vector is of that one model
            assert returned >= baseline[(kind, topic)], (kind, topic, returned)

    marker = tmp_path / "other-requests"
    switch.embedding_switch_start(workspace=workspace, model="other")
    searcher.start()
    workers.start(provider="local", EMBED_BATCH_MAX_CHUNKS="4", OTHER_BACKEND_SECONDS="0.2",
                  OTHER_BACKEND_MARKER=str(marker), **EXTRA)
    wait_until(lambda: selectors.embedding_switch_progress(workspace=workspace)["covered"] == chunks, workers,
               "the backfill to cover every chunk")
    during = searcher.finish()
    assert any(0 < n < chunks for n in searcher.covered)  # searches ran while the backfill was half done
    check(during, model="use-multilingual-v3", dimensions=512)
    assert marker_texts(marker) == chunks  # each text embedded once by the new model
    assert vector_counts(workspace) == {"use-multilingual-v3": chunks, OTHER: chunks}

    for step, model, dimensions, counts in [
        (lambda: switch.embedding_switch_promote(workspace=workspace), OTHER, 8, {"use-multilingual-v3": chunks,
                                                                                   OTHER: chunks}),
        (lambda: switch.embedding_switch_rollback(workspace=workspace), "use-multilingual-v3", 512,
         {"use-multilingual-v3": chunks, OTHER: chunks}),
        (lambda: switch.embedding_switch_prune(workspace=workspace, model=OTHER), "use-multilingual-v3", 512,
         {"use-multilingual-v3": chunks, OTHER: 0}),
    ]:
        searcher = Searcher(workspace)
        searcher.start()
        wait_until(lambda: len(searcher.answers) >= 2, workers, "a topic searched before the step")
        step()
        # Two topics' answers after this count: the second topic's searches began after the step.
        stepped = len(searcher.answers)
        wait_until(lambda: len(searcher.answers) >= stepped + 4, workers, "two topics searched after the step")
        answers = searcher.finish()
        # Searches that began before the flip answered with the old model; each with one model.
        flip = next((i for i, a in enumerate(answers) if a[2] == model), len(answers))
        assert all(a[2] == model for a in answers[flip:])
        check(answers[flip:], model=model, dimensions=dimensions)
        for kind, topic, answered_by, returned, dims in answers[:flip]:
            assert len(dims) == 1 and returned >= baseline[(kind, topic)]
        check([a for t in TOPICS[:3] for a in Searcher(workspace).search(t)], model=model, dimensions=dimensions)
        assert vector_counts(workspace) == counts
    assert Chunk.objects.embedded().count() == chunks


def test_worker_killed_mid_backfill_loses_nothing_and_embeds_nothing_twice(workspace, workers, settings,
                                                                             other_model, tmp_path):
    use_backend(settings, "ingestion.embeddings.fake.FakeEmbeddingBackend")
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(12):
        entry_make(doc, title=f"Durable text number {i}")
    services.chunks_embed_pending()
    switch.embedding_switch_start(workspace=workspace, model="other")
    marker = tmp_path / "other-requests"
    env = {"OTHER_BACKEND_MARKER": str(marker), "OTHER_BACKEND_SECONDS": "1.0", "EMBED_BATCH_MAX_CHUNKS": "4",
           "INGESTION_LEASE_SECONDS": "3", **EXTRA}
    first = workers.start(provider="fake", **env)
    wait_until(lambda: marker.exists() and len(marker.read_text().splitlines()) >= 2
               and ChunkVector.objects.filter(model=OTHER).exists(), workers,
               "the first backfill batch stored and the second request started")
    workers.kill(first)  # SIGKILL while a request is in flight
    stored_before = {c.text for c in Chunk.objects.filter(vectors__model=OTHER)}
    assert 0 < len(stored_before) < 12
    # Sent by the killed worker and never stored: its request (or store) the kill cut short.
    cut = {t for r in marker_requests(marker) if r["pid"] == first.pid for t in r["texts"]} - stored_before

    workers.start(provider="fake", beat=True, **env)  # the beat sweep finds the leased-out chunks
    wait_until(lambda: selectors.embedding_switch_progress(workspace=workspace)["covered"] == 12, workers,
               "the backfill to finish after the restart")
    sent = [t for r in marker_requests(marker) for t in r["texts"]]
    resent = {t for t in sent if sent.count(t) > 1}
    assert set(sent) == {c.text for c in Chunk.objects.all()}
    assert resent <= cut and not resent & stored_before  # nothing stored was embedded again
    assert all(sent.count(t) <= 2 for t in sent)
    usage = EmbeddingUsage.objects.filter(workspace=workspace, model=OTHER)
    assert sum(u.texts for u in usage) == 12  # usage counts each stored text once
    other = OtherFakeBackend()
    for chunk in Chunk.objects.all():
        assert list(current_vector(chunk, OTHER).embedding) == pytest.approx(other._vector(chunk.text), abs=1e-6)
        assert chunk.status == "embedded" and chunk.leased_until is None
    assert ChunkVector.objects.filter(model="fake-hash-16").count() == 12


def test_edits_during_a_backfill_end_with_current_vectors_for_both_models(workspace, workers, settings,
                                                                          other_model, tmp_path):
    use_backend(settings, "ingestion.embeddings.fake.FakeEmbeddingBackend")
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entries = [entry_make(doc, title=f"Policy {i}", body=f"<p>Version one of policy {i}.</p>") for i in range(12)]
    services.chunks_embed_pending()
    switch.embedding_switch_start(workspace=workspace, model="other")
    marker = tmp_path / "other-requests"
    workers.start(provider="fake", beat=True, OTHER_BACKEND_MARKER=str(marker), OTHER_BACKEND_SECONDS="0.5",
                  EMBED_BATCH_MAX_CHUNKS="4", **EXTRA)
    wait_until(lambda: marker.exists(), workers, "the backfill to start")
    for entry in (entries[0], entries[5], entries[11]):
        cms_services.entry_update(entry=entry, data={**entry.data, "body": "<p>Version two, edited mid-backfill.</p>"})
    wait_until(lambda: Chunk.objects.pending().count() == 0
               and selectors.embedding_switch_progress(workspace=workspace)["covered"] == Chunk.objects.count(),
               workers, "every chunk to hold current vectors of both models")
    from ingestion.embeddings.fake import FakeEmbeddingBackend

    fake, other = FakeEmbeddingBackend(), OtherFakeBackend()
    for entry in (entries[0], entries[5], entries[11]):
        for chunk in Chunk.objects.filter(entry=entry):
            assert "Version two" in chunk.text or chunk.field != "body"
            assert list(current_vector(chunk, "fake-hash-16").embedding) == pytest.approx(fake._vector(chunk.text),
                                                                                         abs=1e-6)
            assert list(current_vector(chunk, OTHER).embedding) == pytest.approx(other._vector(chunk.text), abs=1e-6)


def test_the_demo_workspace_switches_to_e5_and_back(workspace, workers, settings, tmp_path):
    """Issue 37: the demo workspace, as `make run` seeds it, moves from USE to multilingual-e5-small
    and back with the operator's command, the backfill made by a real worker with the real model."""
    import io

    from django.core.management import call_command

    from cms.models import Workspace

    use_backend(settings, "ingestion.embeddings.local.LocalEmbeddingBackend")
    call_command("seed_demo", stdout=io.StringIO())
    demo = Workspace.objects.get(slug="demo")
    services.chunks_embed_pending()
    chunks = Chunk.objects.for_workspace(demo).count()
    assert chunks and ChunkVector.objects.filter(workspace=demo, model="use-multilingual-v3").count() == chunks
    queries = tmp_path / "queries.tsv"
    queries.write_text("q1\thow do I get my money back\nq2\t返品したい\nq3\tforgot my password\n", encoding="utf-8")

    def run(*args: str) -> str:
        out = io.StringIO()
        call_command("embedding_switch", *args, stdout=out)
        return out.getvalue()

    def answers(model: str, dimensions: int) -> None:
        access = workspace_access_for_operator(workspace=demo)
        for query, title in (("how do I get my money back", "Refund policy"), ("返品したい", "返品・返金について")):
            for result in (semantic_search(access=access, query=query, top_k=3),
                           hybrid_search(access=access, query=query, top_k=3)):
                assert (result.model, result.dimensions) == (model, dimensions), query
                assert title in [hit.title for hit in result.hits], (query, model)

    answers("use-multilingual-v3", 512)
    run("start", "demo", "--model", "e5-small")
    answers("use-multilingual-v3", 512)  # the active model answers while the target backfills
    # The onnx graph cache is the checkout's (var/e5/), as `make run`'s worker uses.
    workers.start(provider="local", EMBED_BATCH_MAX_CHUNKS="8")
    wait_until(lambda: selectors.embedding_switch_progress(workspace=demo)["covered"] == chunks, workers,
               "the e5-small backfill of the demo workspace")
    compared = run("compare", "demo", "--queries", str(queries))
    assert "multilingual-e5-small" in compared and "use-multilingual-v3" in compared, compared
    run("promote", "demo")
    answers("multilingual-e5-small", 384)
    assert ChunkVector.objects.filter(workspace=demo, model="multilingual-e5-small").count() == chunks

    # And back: USE's vectors are still there, so the switch back embeds nothing.
    run("start", "demo", "--model", "local")
    wait_until(lambda: selectors.embedding_switch_progress(workspace=demo)["covered"] == chunks, workers,
               "the switch back to USE")
    run("promote", "demo")
    answers("use-multilingual-v3", 512)
    run("prune", "demo", "--model", "multilingual-e5-small")
    assert ChunkVector.objects.filter(workspace=demo).values_list("model", flat=True).distinct().get() == \
        "use-multilingual-v3"
