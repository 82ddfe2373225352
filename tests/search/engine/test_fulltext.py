"""search_entries: literal, case-insensitive substring search over entry values, on real PostgreSQL."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cms.models import Entry
from search.contract.errors import SearchInputError
from search.engine.fulltext import MAX_QUERY_CHARS, SearchPlan, search_entries, search_entries_explain
from search.contract.options import EntrySearchOptions, option_from_text
from tests.factories import ContentTypeFactory, entry_make, full_access


def found(workspace, query, **kwargs) -> list[int]:
    return [hit.entry_id for hit in search_entries(access=full_access(workspace), query=query, **kwargs).hits]


# --- literal input -------------------------------------------------------------------------


def test_percent_sign_in_query_is_literal(workspace, article_type):
    discount = entry_make(article_type, title="Save 100% today")
    entry_make(article_type, title="Save 1000 today")
    assert found(workspace, "100%") == [discount.pk]


def test_underscore_in_query_is_literal(workspace, article_type):
    snake = entry_make(article_type, title="field_name")
    entry_make(article_type, title="field-name")
    assert found(workspace, "d_n") == [snake.pk]


def test_backslash_in_query_is_literal(workspace, article_type):
    path = entry_make(article_type, title=r"C:\temp\new")
    entry_make(article_type, title="C:/temp/new")
    assert found(workspace, "\\temp\\") == [path.pk]


def test_percent_and_underscore_alone_match_only_their_characters(workspace, article_type):
    entry_make(article_type, title="nothing special here")
    both = entry_make(article_type, title="50%_off")
    assert found(workspace, "%_") == [both.pk]


# --- values, not JSON ------------------------------------------------------------------------


def test_query_equal_to_a_field_id_does_not_match_every_entry(workspace, article_type):
    entry_make(article_type, title="Quarterly report", body="Numbers")
    entry_make(article_type, title="Launch", body="News")
    assert found(workspace, "title") == []


def test_json_punctuation_does_not_match(workspace, article_type):
    entry_make(article_type, title="Plain", body="Text")
    assert found(workspace, '": "') == []


def test_double_quote_in_value_is_found_by_typing_it(workspace, article_type):
    quoted = entry_make(article_type, title='He said "refund me"')
    assert found(workspace, '"refund me"') == [quoted.pk]


def test_newline_in_value_is_found_by_typing_it(workspace, article_type):
    multiline = entry_make(article_type, title="Two lines", body="first line\nsecond line")
    assert found(workspace, "line\nsecond") == [multiline.pk]


def test_match_does_not_span_two_field_values(workspace, article_type):
    entry_make(article_type, title="ends with abc", body="def starts the body")
    assert found(workspace, "abcdef") == []


def test_number_value_is_found(workspace, article_type):
    versioned = entry_make(article_type, title="Release", version=4217)
    assert found(workspace, "4217") == [versioned.pk]


def test_boolean_value_is_not_searchable(workspace, article_type):
    entry_make(article_type, title="Featured post", featured=True)
    assert found(workspace, "true") == []


# --- case and Japanese ---------------------------------------------------------------------------


def test_ascii_match_is_case_insensitive(workspace, article_type):
    entry = entry_make(article_type, title="Refund Policy")
    assert found(workspace, "rEFUND pOLICY") == [entry.pk]


def test_japanese_one_character_query_finds_entry(workspace, article_type):
    entry = entry_make(article_type, title="返品について")
    entry_make(article_type, title="配送について")
    assert found(workspace, "返") == [entry.pk]


def test_japanese_two_character_query_finds_entry(workspace, article_type):
    entry = entry_make(article_type, title="返品ポリシー")
    entry_make(article_type, title="返金ポリシー")
    assert found(workspace, "返品") == [entry.pk]


def test_japanese_three_character_query_finds_entry(workspace, article_type):
    entry = entry_make(article_type, title="送料無料キャンペーン")
    entry_make(article_type, title="送料について")
    assert found(workspace, "料無料") == [entry.pk]


def test_japanese_six_character_query_finds_entry(workspace, article_type):
    entry = entry_make(article_type, title="案内", body="お客様の払い戻し手続きについて")
    entry_make(article_type, title="案内", body="払い戻しについて")
    assert found(workspace, "払い戻し手続") == [entry.pk]


# --- tenancy, order, paging, filters -------------------------------------------------------------


def test_entries_of_another_workspace_are_not_found(workspace, other_workspace, article_type):
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="article")
    entry_make(theirs, title="Globex refund policy")
    mine = entry_make(article_type, title="Acme refund policy")
    assert found(workspace, "refund policy") == [mine.pk]


def test_results_are_newest_first(workspace, article_type):
    old, new = entry_make(article_type, title="refund old"), entry_make(article_type, title="refund new")
    Entry.objects.filter(pk=new.pk).update(created_at=timezone.now() - dt.timedelta(days=2))
    Entry.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=1))
    assert found(workspace, "refund") == [old.pk, new.pk]


def test_limit_and_offset_page_through_matches(workspace, article_type):
    entries = [entry_make(article_type, title=f"refund {i}") for i in range(5)]
    newest_first = [e.pk for e in reversed(entries)]
    pages = [found(workspace, "refund", limit=2, offset=offset) for offset in (0, 2, 4)]
    assert pages == [newest_first[0:2], newest_first[2:4], newest_first[4:]]


def test_has_more_says_whether_another_page_exists(workspace, article_type):
    for i in range(3):
        entry_make(article_type, title=f"refund {i}")
    first, last = (search_entries(access=full_access(workspace), query="refund", limit=2, offset=o) for o in (0, 2))
    assert (first.has_more, last.has_more) == (True, False)


def test_content_type_filter_keeps_only_that_type(workspace, article_type):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq")
    entry_make(article_type, title="refund article")
    question = entry_make(faq, title="refund question")
    assert found(workspace, "refund", content_type="faq") == [question.pk]


def test_status_filter_keeps_only_that_status(workspace, article_type):
    entry_make(article_type, status="published", title="refund live")
    draft = entry_make(article_type, status="draft", title="refund draft")
    assert found(workspace, "refund", status="draft") == [draft.pk]


# --- what a hit says ------------------------------------------------------------------------------


def test_hit_names_matching_fields_in_schema_order(workspace, article_type):
    entry_make(article_type, title="Refund", body="How to get a refund")
    (hit,) = search_entries(access=full_access(workspace), query="refund").hits
    assert hit.matched_fields == ("title", "body")


def test_hit_carries_type_status_and_timestamps(workspace, article_type):
    entry = entry_make(article_type, status="published", title="Refund")
    (hit,) = search_entries(access=full_access(workspace), query="refund").hits
    assert (hit.content_type, hit.status, hit.created_at, hit.updated_at) == (
        "article", "published", entry.created_at, entry.updated_at
    )


def test_snippet_offsets_cover_the_match(workspace, article_type):
    entry_make(article_type, title="x", body="Before. " * 20 + "The REFUND window is 30 days. " + "After. " * 20)
    snippet = search_entries(access=full_access(workspace), query="refund").hits[0].snippet
    start, end = snippet.highlights[0]
    assert (snippet.field, snippet.text[start:end]) == ("body", "REFUND")


def test_snippet_is_short_and_marks_cut_text(workspace, article_type):
    entry_make(article_type, title="x", body="a" * 1000 + "返品" + "b" * 1000)
    snippet = search_entries(access=full_access(workspace), query="返品").hits[0].snippet
    assert len(snippet.text) < 200 and snippet.text.startswith("…") and snippet.text.endswith("…")


# --- plans ---------------------------------------------------------------------------------------


def test_common_term_is_answered_by_the_recent_scan(workspace, article_type, filler_entries):
    assert search_entries(access=full_access(workspace), query="shipping").plan == SearchPlan.RECENT_SCAN


def test_rare_term_of_three_characters_uses_the_gram_index(workspace, article_type, filler_entries):
    entry_make(article_type, title="PX-4417-QR")
    Entry.objects.filter(data__title="PX-4417-QR").update(created_at=timezone.now() - dt.timedelta(days=9))
    result = search_entries(access=full_access(workspace), query="4417")
    assert (result.plan, len(result.hits)) == (SearchPlan.GRAM_INDEX, 1)


def test_rare_term_of_two_characters_uses_the_gram_index(workspace, article_type, filler_entries):
    rare = entry_make(article_type, title="鰻丼")
    Entry.objects.filter(pk=rare.pk).update(created_at=timezone.now() - dt.timedelta(days=9))
    result = search_entries(access=full_access(workspace), query="鰻丼")
    assert (result.plan, [h.entry_id for h in result.hits]) == (SearchPlan.GRAM_INDEX, [rare.pk])


def test_query_without_word_characters_uses_the_gram_index(workspace, article_type, filler_entries):
    rare = entry_make(article_type, title="100%_!")
    Entry.objects.filter(pk=rare.pk).update(created_at=timezone.now() - dt.timedelta(days=9))
    result = search_entries(access=full_access(workspace), query="%_!")
    assert (result.plan, [h.entry_id for h in result.hits]) == (SearchPlan.GRAM_INDEX, [rare.pk])


def test_index_plan_pages_like_the_recent_scan(workspace, article_type, filler_entries):
    rare = [entry_make(article_type, title=f"xqz {i}") for i in range(5)]
    Entry.objects.filter(pk__in=[e.pk for e in rare]).update(created_at=timezone.now() - dt.timedelta(days=9))
    pages = [found(workspace, "xqz", limit=2, offset=o) for o in (0, 2, 4)]
    assert pages == [[rare[4].pk, rare[3].pk], [rare[2].pk, rare[1].pk], [rare[0].pk]]


def test_term_present_but_sparse_in_recent_rows_uses_the_gram_index(workspace, article_type, filler_entries):
    older = entry_make(article_type, title="warranty card")
    Entry.objects.filter(pk=older.pk).update(created_at=timezone.now() - dt.timedelta(days=9))
    newest = entry_make(article_type, title="warranty card")
    result = search_entries(access=full_access(workspace), query="warranty")
    assert (result.plan, [h.entry_id for h in result.hits]) == (SearchPlan.GRAM_INDEX, [newest.pk, older.pk])


def test_gram_index_plan_checks_the_whole_query_not_just_its_pairs(workspace, article_type, filler_entries):
    decoy = entry_make(article_type, title="wa ty ca: every pair, never the phrase")
    Entry.objects.filter(pk=decoy.pk).update(created_at=timezone.now() - dt.timedelta(days=9))
    match = entry_make(article_type, title="warranty card")
    result = search_entries(access=full_access(workspace), query="warranty card")
    assert (result.plan, [h.entry_id for h in result.hits]) == (SearchPlan.GRAM_INDEX, [match.pk])


# Outside a test transaction, as in production: inside one, each search adds a savepoint.
@pytest.mark.django_db(transaction=True)
def test_fairly_common_term_is_answered_by_a_longer_recent_scan(workspace, article_type, django_assert_num_queries):
    Entry.objects.bulk_create(
        Entry(workspace=workspace, content_type=article_type, data={"title": "sale" if i % 5 == 0 else "other"})
        for i in range(300)
    )
    # the budgeted scan, then a longer one that returns the page; then the promotions lookup
    with django_assert_num_queries(3):
        result = search_entries(access=full_access(workspace), query="sale")
    assert (result.plan, len(result.hits), result.has_more) == (SearchPlan.RECENT_SCAN, 20, True)


def _uses_index(plan_text: str, index: str) -> bool:
    return f"Bitmap Index Scan on {index}" in plan_text


@pytest.fixture
def workspace_btrees_dropped(filler_entries):
    """Take away the workspace btrees, inside the test's transaction (rolled back after).

    On a test-sized workspace, reading all of it through a workspace btree really is the
    cheapest plan, and PostgreSQL picks it. search_entries leaves the planner free to pick
    among bitmap plans (at 200k rows it takes the GIN alone for rare terms and a BitmapAnd
    with the workspace btree for medium ones; see bench/fulltext.py), so to show which GIN
    index serves a query the tests remove the alternative rather than load thousands of rows.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'cms_entry' AND indexdef LIKE '%%(workspace_id%%'"
        )
        for (name,) in cursor.fetchall():
            cursor.execute(f'DROP INDEX "{name}"')


def test_explain_shows_gram_index_for_english_query(workspace, workspace_btrees_dropped):
    plan, explain = search_entries_explain(access=full_access(workspace), query="warranty")
    assert (plan, _uses_index(explain, "entry_search_grams")) == (SearchPlan.GRAM_INDEX, True)


def test_explain_shows_gram_index_for_japanese_query(workspace, workspace_btrees_dropped):
    plan, explain = search_entries_explain(access=full_access(workspace), query="払い戻し")
    assert (plan, _uses_index(explain, "entry_search_grams")) == (SearchPlan.GRAM_INDEX, True)


def test_explain_shows_gram_index_for_two_character_query(workspace, workspace_btrees_dropped):
    plan, explain = search_entries_explain(access=full_access(workspace), query="返品")
    assert (plan, _uses_index(explain, "entry_search_grams")) == (SearchPlan.GRAM_INDEX, True)


def test_explain_of_common_term_walks_the_newest_entries_index(workspace, filler_entries):
    plan, explain = search_entries_explain(access=full_access(workspace), query="shipping")
    assert (plan, "entry_ws_newest" in explain) == (SearchPlan.RECENT_SCAN, True)


def test_every_gram_is_keyed_by_the_entrys_workspace(workspace, article_type):
    entry = entry_make(article_type, title="Ab 返品")
    with connection.cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(search_grams) FROM cms_entry WHERE id = %s", [entry.pk])
        (lexemes,) = cursor.fetchone()
    assert {"ab", "返品", "a"} <= {lexeme.split(":", 1)[1] for lexeme in lexemes}
    assert all(lexeme.startswith(f"{workspace.pk}:") for lexeme in lexemes)


def test_gram_index_has_no_pending_list(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'entry_search_grams'")
        (indexdef,) = cursor.fetchone()
    assert "gin (search_grams) WITH (fastupdate=off)" in indexdef


def test_index_plan_reads_no_row_of_another_workspace(workspace, article_type, workspace_btrees_dropped,
                                                      other_workspace):
    # Without the workspace btrees the planner must take a GIN index, as it does at scale.
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="article")
    Entry.objects.bulk_create(
        Entry(workspace=other_workspace, content_type=theirs, data={"title": f"xqz warranty {i}"}) for i in range(500)
    )
    ours = entry_make(article_type, title="xqz warranty here")
    Entry.objects.filter(pk=ours.pk).update(created_at=timezone.now() - dt.timedelta(days=9))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cms_entry")
    with CaptureQueriesContext(connection) as captured:
        result = search_entries(access=full_access(workspace), query="xqz warranty")
    assert (result.plan, [hit.entry_id for hit in result.hits]) == (SearchPlan.GRAM_INDEX, [ours.pk])
    index_message = next(q["sql"] for q in reversed(captured.captured_queries) if "enable_seqscan" in q["sql"])
    rows_read = sum(_scan_rows(plan) for plan in _analyze(index_message))
    assert 0 < rows_read <= Entry.objects.filter(workspace=workspace).count()


def _analyze(message: str) -> list[dict]:
    """EXPLAIN ANALYZE of each statement of a search message (as logged, parameters inlined)."""
    plans = []
    with connection.cursor() as cursor:
        for statement in filter(str.strip, message.split(";")):
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + statement.replace("%", "%%"))
            plans.append(cursor.fetchone()[0][0]["Plan"])
    return plans


def _scan_rows(plan: dict) -> int:
    """Rows the scans of a plan returned or threw away, index rechecks included."""
    own = 0
    if "Scan" in plan["Node Type"] and plan["Node Type"] != "Bitmap Index Scan":
        own = (plan["Actual Rows"] + plan.get("Rows Removed by Filter", 0)
               + plan.get("Rows Removed by Index Recheck", 0)) * plan["Actual Loops"]
    return round(own) + sum(_scan_rows(child) for child in plan.get("Plans", []))


# Outside a test transaction, as in production: inside one, each search adds a savepoint.
@pytest.mark.django_db(transaction=True)
def test_common_term_search_is_one_statement(workspace, article_type, filler_entries, django_assert_num_queries):
    with django_assert_num_queries(2):  # the statement, then the promotions lookup (search/engine/promotions.py)
        search_entries(access=full_access(workspace), query="shipping")


# Outside a test transaction, as in production: inside one, each search adds a savepoint.
@pytest.mark.django_db(transaction=True)
def test_rare_term_search_is_two_round_trips(workspace, article_type, filler_entries, django_assert_num_queries):
    # The recent scan, then one message: planner settings, the index statement, restore.
    # Then the promotions lookup; and, as it finds nothing, did-you-mean's two (the
    # dictionary, then the trigram candidates with pg_trgm's threshold in the same message:
    # search/engine/forgiving/typos.py, search/engine/db/statements.py).
    with django_assert_num_queries(5):
        search_entries(access=full_access(workspace), query="xqzzy")


def test_index_search_leaves_planner_settings_as_they_were(workspace, article_type, filler_entries):
    search_entries(access=full_access(workspace), query="xqzzy")
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('enable_seqscan'), current_setting('enable_indexscan')")
        assert cursor.fetchone() == ("on", "on")


# --- bad input --------------------------------------------------------------------------------------


def _error_code(workspace, **kwargs) -> str:
    with pytest.raises(SearchInputError) as raised:
        search_entries(access=full_access(workspace), **{"query": "refund", **kwargs})
    return raised.value.code


def test_empty_query_is_refused(workspace):
    assert _error_code(workspace, query="") == "query_empty"


def test_whitespace_only_query_is_refused(workspace):
    assert _error_code(workspace, query=" \t\n ") == "query_empty"


def test_query_over_500_characters_is_refused(workspace):
    assert _error_code(workspace, query="a" * (MAX_QUERY_CHARS + 1)) == "query_too_long"


def test_query_of_500_characters_is_accepted(workspace):
    assert search_entries(access=full_access(workspace), query="a" * MAX_QUERY_CHARS).hits == ()


def test_nul_byte_in_query_is_refused(workspace):
    assert _error_code(workspace, query="ref\x00und") == "query_invalid_character"


def test_invalid_utf8_in_query_is_refused(workspace):
    undecodable = b"ref\xffund".decode("utf-8", errors="surrogateescape")
    assert _error_code(workspace, query=undecodable) == "query_invalid_encoding"


def test_value_separator_in_query_is_refused(workspace):
    assert _error_code(workspace, query="a\x1fb") == "query_invalid_character"


@pytest.mark.parametrize("limit", [0, 101, -1])
def test_limit_out_of_range_is_refused(workspace, limit):
    assert _error_code(workspace, limit=limit) == "limit_out_of_range"


def test_negative_offset_is_refused(workspace):
    assert _error_code(workspace, offset=-1) == "offset_out_of_range"


@pytest.mark.parametrize("raw", ["abc", "1.5", "", "--1"])
def test_limit_that_is_not_a_whole_number_is_refused(raw):
    with pytest.raises(SearchInputError) as raised:
        EntrySearchOptions.validated({"query": "refund", "limit": option_from_text(EntrySearchOptions, "limit", raw)})
    assert raised.value.code == "limit_invalid"


def test_unknown_content_type_is_refused(workspace, article_type):
    assert _error_code(workspace, content_type="nope") == "unknown_content_type"


def test_content_type_of_another_workspace_is_unknown(workspace, other_workspace):
    ContentTypeFactory(workspace=other_workspace, api_id="secret")
    assert _error_code(workspace, content_type="secret") == "unknown_content_type"


def test_unknown_status_is_refused(workspace):
    assert _error_code(workspace, status="archived") == "unknown_status"


def test_index_plan_does_not_and_in_the_whole_workspace(workspace, article_type, other_workspace):
    # The grams already hold only this workspace's rows: a bitmap of all of them from a
    # workspace btree can never remove a row, and costs a read of the whole workspace. The
    # planner cannot know that, and took it for one-gram queries at scale (bench/fulltext.py).
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="article")
    with connection.cursor() as cursor:
        for ws, ct, rows in ((other_workspace.pk, theirs.pk, 40_000), (workspace.pk, article_type.pk, 2_000)):
            cursor.execute(
                "INSERT INTO cms_entry (workspace_id, content_type_id, data, status, created_at, updated_at)"
                " SELECT %s, %s, jsonb_build_object('title', 'w' || (i * 7919 %% 4001) || ' k' || (i %% 613)),"
                " 'published', now() - make_interval(secs => i), now() FROM generate_series(1, %s) AS i",
                [ws, ct, rows],
            )
        cursor.execute("ANALYZE cms_entry")
    rare = entry_make(article_type, title="鰻丼")
    Entry.objects.filter(pk=rare.pk).update(created_at=timezone.now() - dt.timedelta(days=9))
    plan, explain = search_entries_explain(access=full_access(workspace), query="鰻丼")
    assert (plan, _uses_index(explain, "entry_search_grams"), "BitmapAnd" in explain) == (SearchPlan.GRAM_INDEX, True, False)
