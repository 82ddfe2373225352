"""`manage.py agentic_search <workspace> "<question>" [--part "<sub-question>" ...]`: agentic search from a terminal."""

from __future__ import annotations

from typing import Any

from search.contract.results import SearchResult
from search.kinds import AGENTIC_SEARCH
from search.interfaces.commands.search_command import SearchCommand, chunk_source_lines


class Command(SearchCommand):
    kind = AGENTIC_SEARCH

    def write_table(self, access: Any, result: SearchResult) -> None:
        body = result.as_dict()
        meta = body["meta"]
        self.stdout.write(
            f"{meta['returned']} result(s) in {access.workspace.slug}: path {meta['path']}, "
            f"{len(meta['parts'])} part(s) ({meta['parts_source']}), legs {'+'.join(meta['legs_used'])}, "
            f"{meta['pending']} chunk(s) pending"
        )
        reason = meta["fallback_reason"]
        if reason:
            self.stdout.write(f"  fell back to the whole question: {reason['stage']} [{reason['code']}] "
                              f"{reason['message']}")
        for number, part in enumerate(meta["parts"], start=1):
            placed = next((p["returned"] for p in meta.get("part_results", []) if p["query"] == part), None)
            self.stdout.write(f"  part {number}: {part}" + (f"  ({placed} placed)" if placed is not None else ""))
        for leg, why in meta.get("degraded", {}).items():
            self.stdout.write(f"  {leg} leg not used: [{why['code']}] {why['message']}")
        for rank, source in enumerate(body.get("sources", []), start=1):
            self.stdout.write("\n".join(chunk_source_lines(rank, source, legs=False)))
