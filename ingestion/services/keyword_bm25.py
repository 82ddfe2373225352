"""The keyword leg's BM25 indexes (pg_textsearch) over ingestion_keywordtext: building them.

The rows they index are written beside the postings (ingestion.services.keyword); this module
only makes the extension and the indexes, for migration 0017 and `manage.py keyword_bm25_index`:
the index over every row (BM25_INDEX), and a workspace's own, partial to its rows, whose
statistics are the workspace's alone (the one the keyword leg reads, docs/design/tenancy.md).
docs/design/bm25-index.md says why the index reads our own terms, and docs/operators.md "The
keyword index" how to switch to it and back.
"""

from __future__ import annotations

from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper

from ingestion.keywords import BM25_INDEX, bm25_workspace_index
from ingestion.models import KeywordText
from ingestion.selectors import keyword_bm25_index_state
# The terms are ours already (ingestion.keywords): `simple` only splits them at the spaces and
# lower-cases what is lower-case already; no stop words, no stemming (bench/bm25_tokens.py).
TEXT_CONFIG = "simple"
TEXT_TABLE = KeywordText._meta.db_table


def keyword_bm25_unavailable(*, connection: BaseDatabaseWrapper | None = None) -> str | None:
    """Why the index cannot be built on this server (a sentence), or None. Creates the
    extension when it is installed and preloaded and the role may."""
    with (connection or default_connection).cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_textsearch'")
        if cursor.fetchone():
            return None
        cursor.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_textsearch'")
        if not cursor.fetchone():
            return ("The server has no pg_textsearch: the keyword leg stays on the postings. Install it "
                    "(third_party/pg_textsearch), preload it, then run manage.py keyword_bm25_index.")
        cursor.execute("SELECT 'pg_textsearch' = ANY(string_to_array(replace(current_setting('shared_preload_libraries'),"
                       " ' ', ''), ','))")
        if not cursor.fetchone()[0]:
            return ("pg_textsearch is installed but not in shared_preload_libraries: the keyword leg stays on "
                    "the postings. Preload it, restart the server, then run manage.py keyword_bm25_index.")
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        if not cursor.fetchone()[0]:
            return ("The database role cannot create the extension pg_textsearch: as a superuser run "
                    "CREATE EXTENSION pg_textsearch; then manage.py keyword_bm25_index.")
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_textsearch")
    return None


def keyword_bm25_index_build(*, connection: BaseDatabaseWrapper | None = None) -> str:
    """Build the BM25 index with CREATE INDEX CONCURRENTLY (outside a transaction: writes go on
    meanwhile), dropping first an invalid one an interrupted build left; returns what was done,
    as a sentence. Idempotent: a valid index is left as it is."""
    return _index_build(BM25_INDEX, where="", concurrently=True, connection=connection) or (
        f"Built the BM25 index {BM25_INDEX}: the keyword leg reads it where SEARCH_KEYWORD_INDEX=auto.")


def _index_build(name: str, *, where: str, concurrently: bool, connection: BaseDatabaseWrapper | None) -> str | None:
    """Build the bm25 index `name` over the terms (`where`: its partial predicate, or ""), unless it
    is valid already (an invalid one, which an interrupted CONCURRENTLY build leaves, is dropped
    first); None once built, else why not, as a sentence."""
    connection = connection or default_connection
    reason = keyword_bm25_unavailable(connection=connection)
    if reason:
        return reason
    state = keyword_bm25_index_state(name)
    if state == "valid":
        return f"The BM25 index {name} exists already."
    how = " CONCURRENTLY" if concurrently else ""
    with connection.cursor() as cursor:
        if state == "invalid":
            cursor.execute(f"DROP INDEX{how} IF EXISTS {name}")
        cursor.execute(f"CREATE INDEX{how} {name} ON {TEXT_TABLE} USING bm25 (terms)"
                       f" WITH (text_config = '{TEXT_CONFIG}'){where}")
    return None


# A workspace with fewer chunks than this gets no index of its own: its queries' postings mostly
# fit the keyword leg's CANDIDATE_BUDGET, read exactly without an index (docs/design/bm25-index.md).
WORKSPACE_INDEX_MIN_CHUNKS = 2000


def keyword_bm25_workspace_index_build(*, workspace_id: int, concurrently: bool = True,
                                       connection: BaseDatabaseWrapper | None = None) -> str:
    """Build a workspace's own BM25 index, partial to its rows (`WHERE workspace_id = <id>`), so that
    pg_textsearch's statistics (chunks, average length, document frequencies) are the workspace's;
    returns what was done, as a sentence. Idempotent: a valid index is kept, an invalid one
    (an interrupted CONCURRENTLY build) dropped and built again. `concurrently=False` builds it
    inside the caller's transaction (tests; a new workspace's empty index)."""
    name = bm25_workspace_index(workspace_id)
    return _index_build(name, where=f" WHERE workspace_id = {int(workspace_id)}", concurrently=concurrently,
                        connection=connection) or (
        f"Built the BM25 index {name} of workspace {workspace_id}: its keyword searches read it where"
        " SEARCH_KEYWORD_INDEX=auto.")


def keyword_bm25_workspaces_to_index(*, min_chunks: int = WORKSPACE_INDEX_MIN_CHUNKS) -> list[int]:
    """The workspaces with at least `min_chunks` chunks and no valid index of their own, largest first."""
    with default_connection.cursor() as cursor:
        cursor.execute(f"SELECT workspace_id FROM {TEXT_TABLE} GROUP BY workspace_id HAVING count(*) >= %s"
                       " ORDER BY count(*) DESC, workspace_id", [min_chunks])
        workspace_ids = [row[0] for row in cursor.fetchall()]
    return [ws for ws in workspace_ids if keyword_bm25_index_state(bm25_workspace_index(ws)) != "valid"]
