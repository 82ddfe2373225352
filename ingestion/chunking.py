"""Pure chunking: text in, chunk drafts out (no database, no network).

Heading-aware (Markdown `#`/setext headings, HTML `<h1>`-`<h6>`, rich text's Markdown rendered to
its headings and text by markdown-it-py): chunks never cross a
section, and every chunk of a section starts with its heading path so the heading embeds
with it. Sentence-aware for English (. ! ?) and Japanese (。！？): chunks end on sentence
boundaries unless a single sentence is longer than the chunk. Size-bounded: no chunk is
longer than `size` characters. Overlap repeats whole trailing sentences of the previous
chunk of the same section. Deterministic: the same input always gives the same drafts.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Literal

from markdown_it import MarkdownIt

TextFormat = Literal["plain", "markdown", "html", "richtext"]

# Rich text fields hold Markdown (CommonMark, with GFM tables and strikethrough), the format
# the admin's editor writes. Raw HTML inside it stays allowed, as CommonMark allows: it is
# only ever parsed here to be dropped, never shown, so an older HTML value reads as its text.
_RICHTEXT_MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])

# A value too short to carry meaning alone (a category, a tag: docs/design/entries.md) is
# never a chunk of its own: a two-word chunk is close to every two-word query and outranks the
# passages that answer it (issue 34). It heads the entry's other chunks as context instead.
SHORT_FIELD_MAX_WORDS = 3
SHORT_FIELD_MAX_CHARS = 24


def is_short_value(text: str) -> bool:
    """Whether a plain text value is too short to be a chunk of its own: at most
    SHORT_FIELD_MAX_WORDS words and SHORT_FIELD_MAX_CHARS characters, on one line."""
    value = text.strip()
    return "\n" not in value and len(value) <= SHORT_FIELD_MAX_CHARS and len(value.split()) <= SHORT_FIELD_MAX_WORDS


def context_line(label: str, value: str) -> str:
    """The line a short field adds to each of its entry's chunks: "Category: Shipping"."""
    return f"{' '.join(label.split())}: {' '.join(value.split())}"


# Ingestion passes settings.CHUNK_SIZE_CHARS and CHUNK_OVERLAP_CHARS; why 500: docs/design/ingestion.md, "Chunk size".
DEFAULT_CHUNK_SIZE = 500
DEFAULT_CHUNK_OVERLAP = 80

HEADING_SEPARATOR = " > "


@dataclass(frozen=True)
class ChunkDraft:
    ordinal: int
    text: str
    heading: str = ""  # heading path of the section the chunk came from, e.g. "Refunds > Timing"

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def chunk_text(
    text: str,
    *,
    fmt: TextFormat = "plain",
    size: int = DEFAULT_CHUNK_SIZE,
    overlap: int = DEFAULT_CHUNK_OVERLAP,
    title: str = "",
) -> list[ChunkDraft]:
    """Split `text` into drafts of at most `size` characters, numbered from 0.

    `title` (the document's title) heads every heading path, so each chunk carries it:
    a chunk is embedded with the context of what it is part of.

    `fmt` selects how headings are found: "markdown" (ATX and setext headings, fenced code
    kept whole where it fits; an uploaded Markdown file's text as written), "html" (markup
    stripped, h1-h6 as headings), "richtext" (a rich text field's Markdown rendered, then as
    "html": its headings kept, its markup gone) or "plain" (no headings). Each chunk of a section begins with the section's heading path
    and a newline. About `overlap` characters of whole trailing sentences of the previous
    chunk of the same section are repeated at the start of the next one. Whitespace-only
    input gives [].
    """
    if size < 1:
        raise ValueError("size must be positive")
    if overlap < 0:
        raise ValueError("overlap must not be negative")
    if fmt == "markdown":
        blocks = _markdown_blocks(_normalise_newlines(text))
    elif fmt == "html":
        blocks = _html_blocks(text)
    elif fmt == "richtext":
        blocks = _html_blocks(_RICHTEXT_MARKDOWN.render(text))
    elif fmt == "plain":
        blocks = _plain_blocks(_normalise_newlines(text))
    else:
        raise ValueError(f"unknown text format {fmt!r}")
    if title.strip() and blocks:
        # Level 0: above every real heading, so no section pops it off the path.
        blocks = [_Block("heading", " ".join(title.split()), 0), *blocks]

    drafts: list[ChunkDraft] = []
    for heading, body in _sections(blocks):
        if not body:  # a heading with nothing under it is a chunk on its own
            drafts.append(ChunkDraft(ordinal=len(drafts), text=heading[:size], heading=heading))
            continue
        prefix = _heading_prefix(heading, size)
        budget = size - len(prefix)
        for chunk_body in _pack(_units(body, budget), budget=budget, overlap=min(overlap, budget // 2)):
            drafts.append(ChunkDraft(ordinal=len(drafts), text=prefix + chunk_body, heading=heading))
    return drafts


def richtext_to_text(value: str) -> str:
    """A rich text field's value (Markdown, which may hold HTML) as the text a reader sees:
    what its chunks hold, without `**`, `#` or tags (html_to_text of its rendering)."""
    return html_to_text(_RICHTEXT_MARKDOWN.render(value))


def html_to_text(html: str) -> str:
    """Richtext markup stripped to plain text: entities unescaped, headings on their own
    lines, block elements separated by blank lines, list items and <br> as line breaks."""
    return "\n\n".join(block.text for block in _html_blocks(html))


# --- blocks: a document as a flat list of headings, paragraphs and code -----------------


@dataclass(frozen=True)
class _Block:
    kind: Literal["heading", "text", "code"]
    text: str
    level: int = 0  # heading level, 1-6


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _plain_blocks(text: str) -> list[_Block]:
    return [_Block("text", p.strip("\n")) for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


def _markdown_blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    paragraph: list[str] = []
    code: list[str] = []
    fence = ""

    def flush_paragraph() -> None:
        if paragraph:
            blocks.append(_Block("text", "\n".join(paragraph)))
            paragraph.clear()

    for line in text.split("\n"):
        if fence:
            code.append(line)
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.lstrip(fence[0]):
                blocks.append(_Block("code", "\n".join(code)))
                code, fence = [], ""
            continue
        if match := _FENCE_OPEN.match(line):
            flush_paragraph()
            fence, code = match.group(1), [line]
            continue
        if match := _ATX_HEADING.match(line):
            flush_paragraph()
            blocks.append(_Block("heading", (match.group(2) or "").strip(), len(match.group(1))))
            continue
        if paragraph and not _LIST_ITEM.match(paragraph[0]) and (match := _SETEXT_UNDERLINE.match(line)):
            heading = " ".join(part.strip() for part in paragraph)
            paragraph.clear()
            blocks.append(_Block("heading", heading, 1 if match.group(1)[0] == "=" else 2))
            continue
        if _THEMATIC_BREAK.match(line) or not line.strip():
            flush_paragraph()
            continue
        paragraph.append(line.rstrip())
    flush_paragraph()
    if code:  # an unclosed fence runs to the end of the document
        blocks.append(_Block("code", "\n".join(code)))
    return [block for block in blocks if block.kind == "heading" or block.text.strip()]


class _HtmlBlockParser(HTMLParser):
    """Collects richtext as blocks; inline markup is dropped and whitespace collapsed."""

    BLOCK_TAGS = frozenset({
        "address", "article", "aside", "blockquote", "details", "dialog", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "main", "nav",
        "ol", "p", "section", "summary", "table", "tbody", "tfoot", "thead", "ul",
    })
    LINE_TAGS = frozenset({"br", "li", "dt", "dd", "tr", "caption"})
    HEADING_TAGS = {f"h{level}": level for level in range(1, 7)}
    SKIPPED_TAGS = frozenset({"script", "style", "template", "head", "noscript", "svg"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[_Block] = []
        self._parts: list[str] = []
        self._heading_level = 0
        self._pre_depth = 0
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.SKIPPED_TAGS:
            self._skip_depth += 1
        elif tag in self.HEADING_TAGS:
            self._flush()
            self._heading_level = self.HEADING_TAGS[tag]
        elif tag == "pre":
            self._flush()
            self._pre_depth += 1
        elif tag in self.BLOCK_TAGS:
            self._flush()
        elif tag in self.LINE_TAGS:
            self._parts.append("\n")
        elif tag in ("td", "th"):
            self._parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIPPED_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in self.HEADING_TAGS:
            self._flush()
        elif tag == "pre":
            self._flush()
            self._pre_depth = max(0, self._pre_depth - 1)
        elif tag in self.BLOCK_TAGS:
            self._flush()
        elif tag in self.LINE_TAGS and tag != "br":
            self._parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skip_depth:
            return
        # Outside <pre>, source line breaks are just whitespace; real breaks come from tags.
        self._parts.append(data if self._pre_depth else re.sub(r"\s+", " ", data))

    def close(self) -> None:
        super().close()
        self._flush()

    def _flush(self) -> None:
        raw = "".join(self._parts)
        self._parts = []
        if self._heading_level:
            text, kind = " ".join(raw.split()), "heading"
        elif self._pre_depth:
            text, kind = raw.strip("\n").rstrip(), "code"
        else:
            text = "\n".join(line.strip() for line in raw.split("\n") if line.strip())
            kind = "text"
        if text:
            self.blocks.append(_Block(kind, text, self._heading_level))
        self._heading_level = 0


def _html_blocks(html: str) -> list[_Block]:
    parser = _HtmlBlockParser()
    parser.feed(html)
    parser.close()
    return parser.blocks


# --- sections: a heading path and the blocks under it ------------------------------------


def _sections(blocks: list[_Block]) -> list[tuple[str, list[_Block]]]:
    """(heading path, body blocks) per section. A heading with no body of its own appears
    only in its subsections' paths, unless nothing follows it (then it is a chunk alone)."""
    sections: list[tuple[str, list[_Block]]] = []
    path: list[tuple[int, str]] = []
    body: list[_Block] = []
    has_heading = False

    def close_section(next_level: int | None) -> None:
        heading = HEADING_SEPARATOR.join(title for _, title in path if title)
        if body:
            sections.append((heading, list(body)))
        elif has_heading and heading and (next_level is None or next_level <= path[-1][0]):
            sections.append((heading, []))
        body.clear()

    for block in blocks:
        if block.kind == "heading":
            close_section(block.level)
            while path and path[-1][0] >= block.level:
                path.pop()
            path.append((block.level, block.text))
            has_heading = True
        else:
            body.append(block)
    close_section(None)
    return sections


def _heading_prefix(heading: str, size: int) -> str:
    """The line every chunk of the section starts with; shortened so it never takes more
    than half the chunk (the deepest heading is the most specific, so it is kept)."""
    if not heading:
        return ""
    limit = size // 2
    if len(heading) + 1 > limit:
        heading = heading.rsplit(HEADING_SEPARATOR, 1)[-1]
    if len(heading) + 1 > limit:
        heading = heading[: max(0, limit - 1)]
    return f"{heading}\n" if heading else ""


# --- units: sentences (or smaller pieces of over-long sentences) -------------------------


@dataclass(frozen=True)
class _Unit:
    text: str
    joiner: str  # the whitespace that precedes it when it is not the first in its chunk


_CLOSERS = "\"'”’)]}»」』）］｝】〕〉》"
# An English sentence ends at . ! ? (plus closing quotes/brackets) followed by whitespace;
# a Japanese one at 。！？ (or the half/fullwidth variants) with or without whitespace.
# A line break also ends a sentence unless it is a soft wrap inside an English sentence.
_SENTENCE_END = re.compile(
    rf"(?:[.!?]+[{re.escape(_CLOSERS)}]*(?=\s)|[。！？｡．][。！？｡．!?]*[{re.escape(_CLOSERS)}]*|(?=\n))\s*"
)
# Words that end with "." but rarely end a sentence.
_ABBREVIATIONS = frozenset({
    "e.g", "i.e", "cf", "vs", "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "fig", "figs",
    "eq", "eqs", "ref", "refs", "approx", "al", "inc", "ltd", "corp", "dept", "vol", "pp",
})
_CLAUSE_END = re.compile(r"(?:[,;:](?=\s)|[、，；：])\s*")


def _units(blocks: list[_Block], budget: int) -> list[_Unit]:
    units: list[_Unit] = []
    for block in blocks:
        if block.kind == "code":
            # Code stays whole where it fits, else it is split at line breaks only: its "."
            # and "?" are not sentence ends.
            pieces = [(block.text, "")] if len(block.text) <= budget else _split_lines(block.text)
        else:
            pieces = _split_sentences(block.text)
        for index, (piece, joiner) in enumerate(pieces):
            joiner = "\n\n" if index == 0 else joiner
            for part_index, part in enumerate(_fit(piece, budget)):
                units.append(_Unit(part.text, joiner if part_index == 0 else part.joiner))
    return units


def _split_lines(text: str) -> list[tuple[str, str]]:
    lines = text.split("\n")
    pieces: list[tuple[str, str]] = []
    pending_blank = ""
    for line in lines:
        if not line.strip():
            pending_blank = "\n\n"
            continue
        pieces.append((line.rstrip(), pending_blank or "\n"))
        pending_blank = ""
    return pieces


def _split_sentences(text: str) -> list[tuple[str, str]]:
    """(sentence, whitespace before it) pairs whose concatenation rebuilds `text`."""
    pieces: list[tuple[str, str]] = []
    start = 0
    joiner = ""
    for match in _SENTENCE_END.finditer(text):
        end_of_sentence = match.start() + len(match.group(0).rstrip())
        following = match.end()
        if following >= len(text) or end_of_sentence <= start:
            continue
        if not _is_sentence_boundary(text, start, end_of_sentence, following):
            continue
        pieces.append((text[start:end_of_sentence], joiner))
        joiner = text[end_of_sentence:following]
        start = following
    tail = text[start:].rstrip()
    if tail.strip():
        pieces.append((tail, joiner))
    return [(sentence.strip(), joiner) for sentence, joiner in pieces if sentence.strip()]


def _is_sentence_boundary(text: str, start: int, end: int, following: int) -> bool:
    ender = text[end - 1]
    next_char = text[following]
    gap = text[end:following]
    if ender in "．" and next_char.isdigit() and text[end - 2 : end - 1].isdigit():
        return False  # a fullwidth decimal point, as in ３．５
    if "\n" in gap and ender not in ".!?。！？｡．" + _CLOSERS:
        # A line break without sentence punctuation: a new line (list item, Japanese line)
        # unless an English sentence is merely wrapped onto the next line.
        return not (next_char.islower() and next_char.isascii() and text[end - 1].isascii())
    if ender == ".":
        if next_char.islower():
            return False  # "e.g. the", or a sentence wrapped after an abbreviation
        if "\n" not in gap:
            word = text[start:end].rsplit(None, 1)[-1].rstrip(".").lstrip(_CLOSERS + "(")
            if word.lower() in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                return False  # "Dr. Smith", "J. Smith"
            if next_char.isdigit():
                return False  # "approx. 3", "Fig. 2"
    return True


def _fit(piece: str, budget: int) -> list[_Unit]:
    """`piece` as units of at most `budget` characters: whole if it fits, else split at
    clause punctuation, then at spaces, then (a run with no break at all) hard-split."""
    if len(piece) <= budget:
        return [_Unit(piece, "")]
    for pattern in (_CLAUSE_END, re.compile(r"\s+")):
        parts = _split_keeping(piece, pattern)
        if len(parts) > 1:
            units: list[_Unit] = []
            for part, joiner in parts:
                for index, unit in enumerate(_fit(part, budget)):
                    units.append(_Unit(unit.text, joiner if index == 0 else unit.joiner))
            return units
    slices = (piece[i : i + budget] for i in range(0, len(piece), budget))
    return [_Unit(part, "") for part in slices if part.strip()]


def _split_keeping(text: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """Split after each match of `pattern`, keeping punctuation with the part before it and
    the whitespace as the next part's joiner."""
    parts: list[tuple[str, str]] = []
    start, joiner = 0, ""
    for match in pattern.finditer(text):
        if match.end() >= len(text):
            break
        body_end = match.start() + len(match.group(0).rstrip())
        if body_end > start:
            parts.append((text[start:body_end], joiner))
            joiner, start = text[body_end : match.end()], match.end()
    parts.append((text[start:], joiner))
    return [(part, joiner) for part, joiner in parts if part]


# --- packing: units into chunks, with overlap -------------------------------------------


def _pack(units: list[_Unit], *, budget: int, overlap: int) -> list[str]:
    chunks: list[list[_Unit]] = []
    current: list[_Unit] = []
    length = 0  # of _join(current)
    carried = 0  # leading units of `current` taken over from the previous chunk
    for unit in units:
        added = len(unit.text) + (len(unit.joiner) if current else 0)
        if current and length + added > budget:
            room = budget - len(unit.text) - len(unit.joiner)
            if len(current) - 1 > carried and current[-1].text.endswith((":", "：")) and len(current[-1].text) <= room:
                # A lead-in ("Some items have their own rules:") goes with what it introduces.
                chunks.append(current[:-1])
                current = [current[-1]]
            else:
                chunks.append(current)
                current = _overlap_tail(current, overlap=overlap, room=room)
            carried, length = len(current), _length(current)
            added = len(unit.text) + (len(unit.joiner) if current else 0)
        current.append(unit)
        length += added
    if current:
        chunks.append(current)
    return [_join(chunk) for chunk in chunks]


def _overlap_tail(chunk: list[_Unit], *, overlap: int, room: int) -> list[_Unit]:
    """The longest run of trailing units within `overlap` characters (and the room left
    beside the next unit). Never the whole chunk, so every chunk brings something new.

    English sentences often run past 80 characters, so a last sentence up to 1.5x
    `overlap` is still taken on its own rather than having no overlap at all.
    """
    limit = min(overlap, room)
    tail: list[_Unit] = []
    length = 0
    for unit in reversed(chunk[1:]):
        longer = len(unit.text) + (len(tail[0].joiner) if tail else 0) + length
        if longer > limit:
            break
        tail.insert(0, unit)
        length = longer
    if not tail and len(chunk) > 1 and len(chunk[-1].text) <= min(overlap * 3 // 2, room):
        tail = [chunk[-1]]
    return tail


def _length(units: list[_Unit]) -> int:
    return sum(len(unit.text) for unit in units) + sum(len(unit.joiner) for unit in units[1:])


def _join(units: list[_Unit]) -> str:
    return units[0].text + "".join(unit.joiner + unit.text for unit in units[1:])
