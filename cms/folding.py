"""The one folding rule of every search: what makes 退貨 and 退货, りんご and リンゴ, ＡＢＣ and abc one text.

Two functions, for the two kinds of caller:

- `text_fold(text)`: one character to one character, so an offset into the result is an
  offset into `text` (highlights mark the characters as written). Lowercase (as
  search.engine.snippets did: a character whose lowercase is longer, the Turkish İ, stays), then
  `FOLD_TABLE`:
  - Traditional -> Simplified Chinese, OpenCC's `t2s` character table (cms/fold_t2s.txt,
    written by tools/fold_table.py). Simplified is the canonical side because the table is
    many-to-one (髮 and 發 are both 发): folding that way merges variants, while
    Simplified -> Traditional is one-to-many (发 -> 發 or 髮) and would need the phrase
    context a query rarely has. Character by character, not OpenCC's phrase conversion:
    phrases can change the length (and a query holds few of them). Where OpenCC's table has
    several candidates (乾 -> 干 or 乾) the first is taken; query and text fold the same way,
    so they still meet, at the price of 乾隆 also finding 干隆.
  - hiragana -> katakana (りんご is リンゴ; ゝゞ are ヽヾ).
  - full-width ASCII -> ASCII (ＡＢＣ１ is abc1) and half-width katakana -> katakana
    (ｶﾀｶﾅ is カタカナ), the one-character cases of NFKC; the voiced marks ﾞ ﾟ are left
    as they are (NFKC joins ﾊﾟ into パ, two characters into one).
  The database folds `Entry.search_text` and the entry grams with `text_fold_sql` (cms
  migration 0012), the same table, so a query folded here matches them.
- `text_normalise(text)`: NFKC, lower case, then `FOLD_TABLE`: for terms compared as a whole
  (the keyword leg's terms, typos, suggestions, synonyms, promotions), where offsets do not
  matter and NFKC's joins (ﾊﾟ -> パ, ㍿ -> 株式会社) are welcome.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path

_T2S_PATH = Path(__file__).resolve().parent / "fold_t2s.txt"


def _fold_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for line in _T2S_PATH.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            traditional, simplified = line.split("\t")
            table[ord(traditional)] = simplified
    for code in range(0x3041, 0x3097):  # ぁ..ゖ -> ァ..ヶ
        table[code] = chr(code + 0x60)
    table[0x309D], table[0x309E] = "\u30fd", "\u30fe"  # ゝ ゞ -> ヽ ヾ
    for code in range(0xFF01, 0xFF5F):  # ！..～ -> !..~, lowercased
        table[code] = chr(code - 0xFEE0).lower()
    for code in range(0xFF66, 0xFF9E):  # ｦ..ﾝ -> ヲ..ン (ﾞ ﾟ U+FF9E/F are left)
        table[code] = unicodedata.normalize("NFKC", chr(code))
    # OpenCC maps a handful of characters to one it maps again (薴 -> 苧 -> 苎): follow to the
    # end, so that folding folded text changes nothing.
    for code, target in table.items():
        while (further := table.get(ord(target), target)) != target:
            target = further
        table[code] = target
    return table


# Code point -> its one-character fold, for str.translate.
FOLD_TABLE: dict[int, str] = _fold_table()
_FOLDED_CHARS = frozenset(chr(code) for code in FOLD_TABLE)
# Above this many distinct characters to fold, one translate() beats a replace() per character.
_REPLACE_MAX_CHARS = 40


def text_fold(text: str) -> str:
    """`text` lowercased and folded one character to one character (the module docstring):
    len(text_fold(t)) == len(t), and every offset into the result is an offset into `t`."""
    lowered = text.lower()
    # lower() maps every character to one or more, so equal lengths mean one to one (nearly
    # always): the per-character walk is only for text with characters like İ.
    if len(lowered) != len(text):
        lowered = "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)
    return _translate(lowered)


def _translate(text: str) -> str:
    """FOLD_TABLE applied to `text`. str.translate looks up every character (~0.4 µs each);
    most text has no character to fold (any ASCII text) or a few distinct ones, which
    str.replace swaps far faster."""
    if text.isascii():
        return text
    present = _FOLDED_CHARS.intersection(text)
    if len(present) > _REPLACE_MAX_CHARS:
        return text.translate(FOLD_TABLE)
    for ch in present:
        text = text.replace(ch, FOLD_TABLE[ord(ch)])
    return text


def text_compatible(text: str) -> str:
    """NFKC, the first step of text_normalise: full-width as ASCII, compatibility forms as their
    plain characters, kana and script left as written (where a caller must still tell them apart)."""
    return unicodedata.normalize("NFKC", text)


def text_normalise(text: str) -> str:
    """NFKC, lower case and `FOLD_TABLE`: the form in which whole terms are compared."""
    return _translate(text_compatible(text).lower())


@lru_cache(maxsize=1)
def fold_sql_map() -> str:
    """FOLD_TABLE as a JSON object (character -> its fold), the lookup table of the database's
    cms_text_fold (cms migration 0012). A jsonb key lookup is a binary search; PostgreSQL's
    translate() with a 5,000-character `from` scans it for every character (36 ms for a
    400-character row against 0.7 ms this way, on the loaded 2-CPU machine)."""
    return json.dumps({chr(code): FOLD_TABLE[code] for code in sorted(FOLD_TABLE)}, ensure_ascii=False)
