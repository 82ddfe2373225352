"""`manage.py semantic_search <workspace> "<query>"`: the semantic search from a terminal."""

from __future__ import annotations

from typing import Any

from search.contract.results import SearchResult
from search.kinds import SEMANTIC_SEARCH
from search.interfaces.commands.search_command import SearchCommand, chunk_source_lines


class Command(SearchCommand):
    kind = SEMANTIC_SEARCH

    def write_table(self, access: Any, result: SearchResult) -> None:
        body = result.as_dict()
        meta = body["meta"]
        self.stdout.write(f"{meta['returned']} result(s) in {access.workspace.slug} (model {meta['model']}, "
                          f"{meta['pending']} chunk(s) pending)")
        for rank, source in enumerate(body.get("sources", []), start=1):
            self.stdout.write("\n".join(chunk_source_lines(rank, source, legs=False)))
