"""The language of a piece of content (a title, a snippet, a field's value), for its HTML `lang`; pure.

Content keeps its own language whatever the interface speaks, so that a screen reader reads a
Japanese title in a Japanese voice on an English page. An entry's declared language wins; without
one, the script decides, by this rule (one place, every template uses it through the
`content_lang` filter of cms/templatetags/content_language.py):

- any kana (hiragana, katakana, half-width katakana) -> "ja";
- Han with no kana: "ja" if a character is one of Japan's own simplified forms (shinjitai such as
  売 読 駅 図 気, which Traditional Chinese does not use), else "zh-Hant". Han-only text is
  ambiguous (東京大学 is Japanese too): this project's Chinese readers write Traditional (Hong
  Kong, Taiwan), and short Han-only Japanese is read acceptably by a Chinese voice, while
  Chinese text read as Japanese is not;
- Hangul -> "ko";
- Latin letters and no CJK -> "en";
- nothing to go by (digits, punctuation, empty) -> "" (the page's language applies).
"""

from __future__ import annotations

import re

KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
# Shinjitai: Japanese simplified forms whose Traditional Chinese form differs (and which
# Simplified Chinese writes otherwise too), so Han-only text holding one is Japanese.
SHINJITAI = frozenset(
    "売読駅図気県区円広応桜恵栄塩価絵拡覚楽巻勧歓関観帰戯犠旧拠挙峡暁勲径経継軽鶏芸撃欠検険圏顕験"
    "厳広鉱効黒済剤雑賛残糸歯児辞湿実写釈寿収従渋獣縦粛処奨焼称証乗浄剰畳縄壌嬢譲醸触嘱寝慎尽"
    "粋酔穂随髄枢数瀬声静窃摂専浅戦践銭潜繊禅曽総騒層蔵臓属続堕対帯滞滝択沢担単胆団弾断遅痴"
    "昼虫鋳聴懲鎮転伝当党盗稲闘徳独届弐悩脳覇拝廃売麦発髪抜蛮秘浜払仏変辺弁舗歩宝豊没翻毎"
    "万満黙訳薬与誉揺様謡来頼乱覧竜両猟緑塁涙励礼霊齢恋炉労郎楼録湾"
)


def content_language(text: str | None, declared: str | None = None) -> str:
    """The BCP 47 tag for `text`: `declared` when given, else the script rule of the module docstring."""
    if declared:
        return declared
    if not text:
        return ""
    if KANA.search(text):
        return "ja"
    if HAN.search(text):
        return "ja" if any(char in SHINJITAI for char in text) else "zh-Hant"
    if HANGUL.search(text):
        return "ko"
    if LATIN.search(text):
        return "en"
    return ""
