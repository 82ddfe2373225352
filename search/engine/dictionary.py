"""The keyword dictionary as one caller may see it: a term counts only where a chunk the caller
may see holds it.

The dictionary (ingestion KeywordStat and its deltas) is kept per workspace over every chunk,
drafts included. Whatever a published-only caller is *told* about terms (typo corrections,
prefix completions, suggestions, which query words the keyword leg found) is checked here
against the postings of the chunks it may see (`search.engine.filters.visibility`), so a word only drafts
hold is as absent as a word nobody wrote. BM25's statistics (N, df, average length) stay
workspace-wide, as Elasticsearch's document-level security keeps its index statistics:
docs/design/tenancy.md says what that does and does not reveal.
"""

from __future__ import annotations

from collections.abc import Iterable

from cms.citus_mode import same_workspace
from ingestion.models import KeywordPosting, KeywordStat, KeywordStatDelta
from search.engine.filters.compile import CompiledFilter
from search.engine.db.statements import search_cursor

# The keyword index's tables, named once for every statement that reads them.
POSTING_TABLE = KeywordPosting._meta.db_table
STAT_TABLE = KeywordStat._meta.db_table
DELTA_TABLE = KeywordStatDelta._meta.db_table


def term_visible_sql(term_sql: str, visible: CompiledFilter) -> CompiledFilter:
    """TRUE when a chunk passing `visible` (alias `c`) holds the term `term_sql` (an SQL
    expression): one probe of the posting index (workspace, term), stopping at the first such
    chunk. Its params: the workspace id, then `visible`'s."""
    return CompiledFilter(
        f"EXISTS (SELECT 1 FROM {POSTING_TABLE} vp JOIN ingestion_chunk c ON c.id = vp.chunk_id{same_workspace('c', 'vp')}"
        f" WHERE vp.workspace_id = %s AND vp.term = {term_sql} AND {visible.sql})",
        list(visible.params),
    )


def dictionary_visible(*, workspace_id: int, terms: Iterable[str], visible: CompiledFilter | None) -> set[str]:
    """Which of `terms` a chunk passing `visible` holds (all of them when `visible` is None: the
    caller sees every chunk, and a term of the dictionary is in some chunk). One statement."""
    wanted = list(dict.fromkeys(terms))
    if visible is None or not wanted:
        return set(wanted)
    check = term_visible_sql("u.term", visible)
    with search_cursor() as cursor:
        cursor.execute(f"SELECT u.term FROM unnest(%s::text[]) AS u(term) WHERE {check.sql}",
                       [wanted, workspace_id, *check.params])
        return {row[0] for row in cursor.fetchall()}
