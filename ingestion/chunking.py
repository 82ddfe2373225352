"""Pure chunking: text in, chunk drafts out (no database, no network).

PROVISIONAL: paragraph packing only. To be replaced by the heading- and sentence-aware
chunker (issue 4); the signature below is the contract the services rely on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

TextFormat = Literal["plain", "markdown", "html"]


@dataclass(frozen=True)
class ChunkDraft:
    ordinal: int
    text: str

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def chunk_text(text: str, *, fmt: TextFormat = "plain", size: int = 500, overlap: int = 80) -> list[ChunkDraft]:
    """Split `text` into drafts of at most about `size` characters, numbered from 0.

    Deterministic: the same input and parameters always give the same drafts.
    """
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    chunks: list[str] = []
    current = ""
    for paragraph in paragraphs:
        if current and len(current) + len(paragraph) + 2 > size:
            chunks.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        chunks.append(current)
    return [ChunkDraft(ordinal=i, text=t) for i, t in enumerate(chunks)]
