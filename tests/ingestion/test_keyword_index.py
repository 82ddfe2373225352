"""The keyword index: the tokenizer, postings written with the chunks, and BM25 statistics that
stay equal to a from-scratch recount through every kind of change (real database)."""

from __future__ import annotations

import pytest
from django.db import connection

from cms import services as cms_services
from cms.models import EntryStatus
from ingestion import services
from ingestion.keywords import LENGTH_TERM, keyword_index_terms, keyword_tokens
from ingestion.models import Chunk, KeywordPosting, KeywordStatDelta
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make

LONG_BODY = " ".join(
    f"Paragraph {i}: refunds are processed within thirty days, and returned parcels are inspected first."
    for i in range(12)
)

# The statistics as a search reads them: compacted rows plus pending deltas, per workspace and term.
STATS_AS_READ = """
    SELECT workspace_id, term, sum(df)::bigint, sum(tf)::bigint
    FROM (SELECT workspace_id, term, df, tf FROM ingestion_keywordstat
          UNION ALL SELECT workspace_id, term, df, tf FROM ingestion_keywordstatdelta) s
    GROUP BY workspace_id, term HAVING sum(df) <> 0
"""
# The same statistics recounted from scratch: every chunk's postings, and the chunks themselves
# (every chunk counts once in its workspace's chunk count, LENGTH_TERM's df).
RECOUNT = """
    SELECT p.workspace_id, p.term, count(*)::bigint, sum(p.tf)::bigint
    FROM ingestion_keywordposting p JOIN ingestion_chunk c ON c.id = p.chunk_id AND c.workspace_id = p.workspace_id
    GROUP BY p.workspace_id, p.term
"""
CHUNK_COUNT = "SELECT workspace_id, count(*) FROM ingestion_chunk GROUP BY workspace_id"


def _rows(sql: str) -> set[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return {tuple(row) for row in cursor.fetchall()}


def assert_statistics_match_recount() -> None:
    assert _rows(STATS_AS_READ) == _rows(RECOUNT)
    chunks_per_workspace = {(ws, n) for ws, n in _rows(CHUNK_COUNT)}
    length_rows = {(ws, df) for ws, term, df, _ in _rows(STATS_AS_READ) if term == LENGTH_TERM}
    assert length_rows == chunks_per_workspace
    # And every chunk's postings are exactly its current text's terms.
    for chunk in Chunk.objects.all():
        indexed = keyword_index_terms(chunk.text)
        postings = {p.term: (p.tf, p.length) for p in KeywordPosting.objects.filter(chunk_id=chunk.id)}
        expected = {term: (tf, indexed.length) for term, tf in indexed.frequencies.items()}
        expected[LENGTH_TERM] = (indexed.length, indexed.length)
        assert postings == expected, chunk.text[:60]


@pytest.fixture
def doc_type(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)


# --- tokenizer ------------------------------------------------------------------------------

def test_japanese_word_is_one_bigram_term():
    assert keyword_tokens("返品") == ["返品"]


def test_japanese_run_becomes_overlapping_bigrams(settings):
    settings.SEARCH_KEYWORD_JA_TOKENIZER = "bigrams"  # the default adds Sudachi's words: tests/ingestion/test_segmentation.py
    assert keyword_tokens("返品ポリシー") == ["返品", "品ポ", "ポリ", "リシ", "シー"]


def test_single_cjk_character_is_its_own_term():
    assert keyword_tokens("品") == ["品"]


def test_index_adds_cjk_unigrams_without_counting_them_in_the_length():
    indexed = keyword_index_terms("返品")

    assert indexed.frequencies == {"返品": 1, "返": 1, "品": 1}
    assert indexed.length == 1


def test_english_words_are_stemmed_and_stopwords_dropped():
    assert keyword_tokens("The refunds are refunded") == ["refund", "refund"]


def test_full_width_latin_is_normalised():
    assert keyword_tokens("ＲＥＦＵＮＤＳ") == keyword_tokens("refunds")


def test_query_and_index_share_the_tokenizer():
    text = "How do I get refunds for 返品?"
    assert set(keyword_tokens(text)) <= set(keyword_index_terms(text).frequencies)


# --- postings written with the chunks ---------------------------------------------------------

def test_saved_entry_is_keyword_indexed_in_its_transaction(doc_type):
    entry = entry_make(doc_type, title="Refunds", body="<p>Refunds within 30 days.</p>")

    chunk = Chunk.objects.get(entry=entry)
    terms = set(KeywordPosting.objects.filter(chunk_id=chunk.id).values_list("term", flat=True))
    assert {"refund", "within", "30", "day", LENGTH_TERM} <= terms


def test_opted_out_type_has_no_postings(workspace):
    plain = ContentTypeFactory(workspace=workspace, api_id="plain", semantic_search_enabled=False)
    entry_make(plain, title="Refunds", body="<p>Refunds within 30 days.</p>")

    assert not KeywordPosting.objects.filter(workspace_id=workspace.pk).exists()


def test_text_asset_is_keyword_indexed(workspace):
    cms_services.asset_upload(workspace=workspace, filename="faq.md", content="# 返品\n返品は30日以内".encode())

    assert KeywordPosting.objects.filter(workspace_id=workspace.pk, term="返品").exists()


def test_chunks_indexed_without_any_embedding_provider(settings, doc_type):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": None}
    entry = entry_make(doc_type, title="Refunds", body="<p>Refunds within 30 days.</p>")

    assert KeywordPosting.objects.filter(chunk__entry=entry, term="refund").exists()


# --- statistics against a recount ------------------------------------------------------------

def test_statistics_match_recount_after_creates(doc_type):
    for i in range(4):
        entry_make(doc_type, title=f"Doc {i}", body=f"<p>{LONG_BODY} extra{i}</p>")

    assert_statistics_match_recount()


def test_statistics_match_recount_after_edits(doc_type):
    entry = entry_make(doc_type, title="Doc", body=f"<p>{LONG_BODY}</p>")
    entry_make(doc_type, title="Other", body="<p>Shipping takes five days.</p>")

    cms_services.entry_update(entry=entry, data={"title": "Doc", "body": "<p>Only a short body now: 配送料金。</p>"})

    assert_statistics_match_recount()


def test_statistics_match_recount_after_deletes(doc_type, workspace):
    keep = entry_make(doc_type, title="Keep", body="<p>Shipping takes five days.</p>")
    gone = entry_make(doc_type, title="Gone", body=f"<p>{LONG_BODY}</p>")
    asset = cms_services.asset_upload(workspace=workspace, filename="a.txt", content=b"refund parcels")

    cms_services.entry_delete(entry=gone)
    cms_services.asset_delete(asset=asset)

    assert_statistics_match_recount()
    assert Chunk.objects.filter(entry=keep).exists()


def test_statistics_match_recount_after_status_changes(doc_type):
    entry = entry_make(doc_type, title="Doc", body=f"<p>{LONG_BODY}</p>", status=EntryStatus.DRAFT)
    deltas_before = KeywordStatDelta.objects.count()

    cms_services.entry_update(entry=entry, status=EntryStatus.PUBLISHED)

    assert_statistics_match_recount()
    assert KeywordStatDelta.objects.count() == deltas_before  # metadata only: no postings rewritten


def test_statistics_match_recount_after_type_toggled_off_and_on(doc_type):
    entry_make(doc_type, title="Doc", body=f"<p>{LONG_BODY}</p>")

    cms_services.content_type_update(content_type=doc_type, semantic_search_enabled=False)
    assert_statistics_match_recount()
    cms_services.content_type_update(content_type=doc_type, semantic_search_enabled=True)

    assert_statistics_match_recount()
    assert KeywordPosting.objects.filter(term="refund").exists()


def test_statistics_match_recount_after_reindex(doc_type):
    entries = [entry_make(doc_type, title=f"Doc {i}", body=f"<p>{LONG_BODY} {i}</p>") for i in range(3)]
    # A reindex after the chunk size changed rewrites every chunk.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ingestion_chunk SET content_hash = 'stale' WHERE entry_id = %s", [entries[0].pk])

    services.chunks_sync_for_content_type(content_type=doc_type)

    assert_statistics_match_recount()


def test_statistics_match_recount_after_compaction(doc_type):
    entry = entry_make(doc_type, title="Doc", body=f"<p>{LONG_BODY}</p>")
    entry_make(doc_type, title="Other", body="<p>Shipping takes five days.</p>")
    cms_services.entry_delete(entry=entry)

    folded = services.keyword_stats_compact(workspace_id=doc_type.workspace_id)

    assert folded > 0
    assert not KeywordStatDelta.objects.exists()
    assert_statistics_match_recount()


def test_compaction_removes_terms_no_chunk_has_any_more(doc_type):
    entry = entry_make(doc_type, title="Doc", body="<p>Xylophones everywhere.</p>")
    services.keyword_stats_compact(workspace_id=doc_type.workspace_id)
    cms_services.entry_delete(entry=entry)

    services.keyword_stats_compact(workspace_id=doc_type.workspace_id)

    assert _rows("SELECT term FROM ingestion_keywordstat WHERE term = 'xylophon'") == set()


def test_statistics_are_kept_per_workspace(doc_type):
    other_type = ContentTypeFactory(workspace=WorkspaceFactory(slug="other"), api_id="doc",
                                    semantic_search_enabled=True)
    entry_make(doc_type, title="Doc", body="<p>Refunds here.</p>")
    entry_make(other_type, title="Doc", body="<p>Refunds there, refunds everywhere.</p>")

    stats = {(ws, term): (df, tf) for ws, term, df, tf in _rows(STATS_AS_READ)}

    assert stats[(doc_type.workspace_id, "refund")] == (1, 1)
    assert stats[(other_type.workspace_id, "refund")] == (1, 2)
    assert_statistics_match_recount()


def test_workspace_delete_takes_its_keyword_rows(doc_type, workspace):
    entry_make(doc_type, title="Doc", body="<p>Refunds here.</p>")
    services.keyword_stats_compact(workspace_id=workspace.pk)

    workspace.delete()

    assert _rows("SELECT 1 FROM ingestion_keywordposting") == set()
    assert _rows("SELECT 1 FROM ingestion_keywordstat UNION ALL SELECT 1 FROM ingestion_keywordstatdelta") == set()


def test_backfill_indexes_chunks_written_before_the_index(doc_type):
    entry = entry_make(doc_type, title="Doc", body=f"<p>{LONG_BODY}</p>")
    KeywordPosting.objects.filter(chunk__entry=entry).delete()

    indexed = services.keyword_index_missing()

    assert indexed == Chunk.objects.filter(entry=entry).count()
    assert services.keyword_index_missing() == 0
    assert_statistics_match_recount()


@pytest.mark.django_db(transaction=True)
def test_statistics_match_recount_after_concurrent_saves_in_one_workspace(workspace):
    import threading

    from django.db import connections

    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    errors: list[BaseException] = []

    def save_many(offset: int) -> None:
        try:
            for i in range(8):
                entry = entry_make(doc_type, title=f"Doc {offset}-{i}", body=f"<p>{LONG_BODY} 返品{i} {offset}</p>")
                cms_services.entry_update(entry=entry, data={**entry.data, "body": f"<p>Edited {i} 配送</p>"})
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save_many, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert_statistics_match_recount()
