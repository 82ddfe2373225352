"""`manage.py hybrid_search <workspace> "<query>"`: the hybrid search from a terminal."""

from __future__ import annotations

from typing import Any

from search.contract.results import SearchResult
from search.kinds import HYBRID_SEARCH
from search.interfaces.commands.search_command import SearchCommand, chunk_source_lines


class Command(SearchCommand):
    kind = HYBRID_SEARCH

    def write_table(self, access: Any, result: SearchResult) -> None:
        body = result.as_dict()
        meta = body["meta"]
        weights = meta["weights"]
        self.stdout.write(
            f"{meta['returned']} result(s) in {access.workspace.slug}: legs {'+'.join(meta['legs_used'])}, "
            f"{meta['fusion']} fusion (keyword {weights['keyword']:g}, semantic {weights['semantic']:g}, "
            f"{weights['source']}), {meta['pending']} chunk(s) pending"
        )
        for leg, why in meta.get("degraded", {}).items():
            self.stdout.write(f"  {leg} leg not used: [{why['code']}] {why['message']}")
        for rank, source in enumerate(body.get("sources", []), start=1):
            self.stdout.write("\n".join(chunk_source_lines(rank, source, legs=True)))
