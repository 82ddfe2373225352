"""Rich text fields hold Markdown: what the admin's editor (EasyMDE) writes and what API clients
render. Values written as HTML before that (the first demo seed, imports) are converted once
(migration 0016) with markdownify, so they open in the editor as Markdown instead of tags.

Reading Markdown as text (snippets, chunks, embeddings) is the chunker's job:
ingestion.chunking.richtext_to_text.
"""

from __future__ import annotations

import re

from markdownify import markdownify

# A value is HTML when it holds a tag that Markdown text would not: an element that opens,
# closes or stands alone (<p>, </h2>, <br/>), not "a < b" or "<3".
_HTML_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?/?>")


def richtext_is_html(value: str) -> bool:
    """Whether a rich text value is written in HTML (holds at least one tag)."""
    return bool(_HTML_TAG.search(value))


def richtext_from_html(value: str) -> str:
    """An HTML rich text value as Markdown: `#` headings, `-` bullets, `**bold**`; text that
    reads as Markdown (a `*` or `_` of the text) escaped so it stays text. Scripts and styles
    are dropped with their content (markdownify's own rule)."""
    markdown = markdownify(value, heading_style="ATX", bullets="-")
    return re.sub(r"\n{3,}", "\n\n", markdown).strip()
