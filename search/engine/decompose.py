"""Splitting a compound question into the questions it asks, by rule (no LLM on the server).

`decompose_question` is the whole rule set: pure functions, text in, parts out. A question
that does not split comes back as one part, unchanged. Agentic search calls it through the
decomposer chosen in settings (`get_decomposer`), so a model-backed decomposer can replace it.

The rules, applied in order (each part of one rule is passed to the next):

1. Lists: two or more lines that start with a bullet (`-`, `*`, `•`, `・`) or a number
   (`1.`, `2)`, `①`) are one part each; text before the list is kept as context for none.
2. Sentences: a part ends at `?`, `？`, `。`, `!`, `！`, and at `. ` before a capital letter
   when the sentence so far has at least three words (so "e.g. Foo" stays whole).
3. Japanese connectives: a sentence that starts a new question with 「また、」「それと、」
   「あと、」 is split there.
4. English coordination: "…, and how/can/what/… ?" is split before "and" when what follows
   starts like a question (an interrogative or an auxiliary followed by a subject).
5. Japanese coordination: 「AとBは？」 and 「AとBについて(教えて)」 where A and B are both noun
   phrases (no verb ending, no comma, no quotative と) become 「Aは？」「Bは？」 (or
   「Aについて…」「Bについて…」); 「…かと、…かについて」 (two embedded questions) likewise.

Fragments of fewer than MIN_PART_WORDS words (and under MIN_PART_CHARS_CJK kanji or
katakana) are merged back into their neighbour, so "Thanks! How do I…?" does not make
"Thanks!" a search.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.conf import settings
from django.utils.module_loading import import_string

MAX_PARTS = 4
# A part needs this many words (or CJK characters: 返品 is a whole query) to be searched on
# its own; shorter ones ("Thanks!", 「はい。」) are merged into a neighbour.
MIN_PART_WORDS = 3
MIN_PART_CHARS_CJK = 2

_BULLET = re.compile(r"^\s*(?:[-*•・]|\d{1,2}[.)]|[①-⑳]|\(\d{1,2}\))\s+")
_BRACKETS = {"「": "」", "『": "』", "（": "）", "(": ")", "［": "］", "[": "]", "“": "”"}
_SENTENCE_MARKS = "?？。!！"
_EN_INTERROGATIVES = "how|what|why|when|where|which|who|whom|whose"
_EN_AUXILIARIES = "is|are|was|were|can|could|do|does|did|will|would|should|shall|may|might|must"
_EN_SUBJECTS = "i|you|we|they|he|she|it|there|this|that|these|those|my|your|our|the|a|an|someone|anyone|people|one"
# A clause that opens a question: "how do…", "what is…", "can I…", "is there…".
_EN_QUESTION_OPENING = (
    rf"(?:(?:{_EN_INTERROGATIVES})\s+(?:{_EN_AUXILIARIES}|has|have|had)\b|(?:{_EN_AUXILIARIES})\s+(?:{_EN_SUBJECTS})\b)"
)
_EN_QUESTION_START = re.compile(rf"^\s*{_EN_QUESTION_OPENING}", re.IGNORECASE)
# "…, and can I …" / "… and how do …": what follows "and" must itself open a question.
_EN_AND = re.compile(rf",?\s+(?:and|also|plus)\s+(?:also\s+)?(?={_EN_QUESTION_OPENING})", re.IGNORECASE)
_EN_COMMA_AND = re.compile(r",\s+and\s+", re.IGNORECASE)
EN_CLAUSE_WORDS = 5
# Signs that a clause asks something: a question opening anywhere, or a question tag.
_EN_ASKS = re.compile(
    rf"(?:^|[,;]\s*|\b)(?:{_EN_QUESTION_OPENING}|is (?:there|this|it) (?:a|an|any|possible)\b|"
    r"can (?:this|it|i) be\b|how to\b)",
    re.IGNORECASE,
)
# A sentence that leans on the one before ("Is this possible?", 「この高気圧は…」): not a part alone.
_ANAPHORA = re.compile(
    r"^\s*(?:(?:is|are|can|could|does|do|will|would|should)\s+(?:this|that|it|these|those|they)\b|"
    r"(?:this|that|it|these|those|they|such)\b|(?:この|その|あの|こう|そう|こんな|そんな|これ|それ|あれ))",
    re.IGNORECASE,
)
# A Japanese sentence that asks: ends in ？ or a question word or particle (か, は, 何, 誰…).
_JA_QUESTION_END = re.compile(r"(?:[？?]|か|かな|は|何|誰|いつ|どこ|どれ|なぜ|なに|何年|何月|何人|ですか|ますか)[。．]?\s*$")
_JA_CONNECTIVE = re.compile(r"(?:また|それと|あと|それから)[、，,]\s*")
_CJK = r"\u3400-\u9fff\uf900-\ufaff"
_KATAKANA = r"\u30a0-\u30ff\uff66-\uff9fー"
_NOUNISH = rf"[{_CJK}{_KATAKANA}A-Za-z0-9０-９Ａ-Ｚａ-ｚ々〆ヶ・\-]"
# A noun phrase: noun-ish runs joined by の (「返品の期限」, 「配送料金」).
_JA_NOUN_PHRASE = rf"(?:{_NOUNISH}+(?:の{_NOUNISH}+)*)"
# 「AとBは？」, 「AとBについて教えて」, 「AとBを教えて」: the short shared tail goes to both parts.
_JA_AND_NOUNS = re.compile(
    rf"^(?P<a>{_JA_NOUN_PHRASE})と(?P<b>{_JA_NOUN_PHRASE})"
    r"(?P<tail>は(?:何|なに|いくら|いつ|どこ|どう)?(?:ですか|か)?[？?。]?|について.{0,12}|を教えて.{0,6})$"
)
# 「…かと、…かについて」: two embedded questions, each ending in か.
_JA_EMBEDDED = re.compile(r"^(?P<a>.{2,}?か)と[、，,]?\s*(?P<b>.{2,}?か)(?P<tail>について.{0,12}|を教えて.{0,6})$")
_CJK_CHAR = re.compile(rf"[{_CJK}{_KATAKANA}]")
# Words that carry no topic of their own: "Is there any way to tell?" needs its neighbour.
_EN_GENERIC = frozenset(
    """a an the is are was were be can could do does did will would should shall may might must i you we they he
    she it there this that these those my your our me to of in on for with from by about any some anything
    something way ways thing things possible tell know help use able get make how what why when where which who
    whom whose not no yes also maybe please thanks thank just really""".split()
)
# A short Japanese question with no topic (「違法ですか？」 after 「合法ですか？」) completes the one before.
_JA_TOPIC = re.compile(r"[はがを]")
_JA_SHORT_FOLLOW_UP = 8
_JA_PARTICLES = frozenset("はがをにでとものへやか")


def decompose_question(question: str) -> list[str]:
    """The questions `question` asks, in order; `[question]` when it asks one (or is not split).

    At most MAX_PARTS parts: a longer list keeps its first MAX_PARTS - 1 items and joins the
    rest into the last, so nothing the caller asked is dropped.
    """
    text = question.strip()
    if not text:
        return [question]
    items = [item.strip() for item in _split_list(text) if item.strip()]
    if len(items) > 1:
        parts = items  # a list says plainly where each question ends
    else:
        parts = [text]
        for rule in (_split_questions, _split_ja_connectives, _split_en_and, _split_ja_and):
            parts = [piece for part in parts for piece in rule(part)]
        parts = _merge_fragments([p.strip() for p in parts if p.strip()])
    if len(parts) <= 1:
        return [question]
    if len(parts) > MAX_PARTS:
        parts = [*parts[: MAX_PARTS - 1], " ".join(parts[MAX_PARTS - 1 :])]
    return parts


def _split_list(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if line.strip()]
    items = [line for line in lines if _BULLET.match(line)]
    if len(items) < 2:
        return [text]
    return [_BULLET.sub("", line, count=1) for line in items]


def sentences(text: str) -> list[str]:
    """`text` cut after ? ？ 。 ! ！ (and `. ` before a capital), never inside brackets or quotes."""
    out: list[str] = []
    start = 0
    closers: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _BRACKETS:
            closers.append(_BRACKETS[ch])
        elif closers and ch == closers[-1]:
            closers.pop()
        elif not closers and (ch in _SENTENCE_MARKS or _english_period(text, i)):
            end = i + 1
            while end < len(text) and text[end] in _SENTENCE_MARKS:
                end += 1
            out.append(text[start:end])
            start = i = end
            continue
        i += 1
    out.append(text[start:])
    return [s.strip() for s in out if s.strip()]


def _english_period(text: str, i: int) -> bool:
    """A full stop that ends an English sentence: `. ` + capital, after 3+ words (not "e.g.")."""
    if text[i] != "." or not re.match(r"\.\s+[A-Z]", text[i : i + 3]):
        return False
    sentence_start = max(text.rfind(mark, 0, i) for mark in _SENTENCE_MARKS + ".")
    return len(text[sentence_start + 1 : i].split()) >= 3 and text[i - 1].isalnum()


def is_question(sentence: str) -> bool:
    """Whether a sentence asks something (English or Japanese), by its form."""
    stripped = sentence.strip()
    if stripped.endswith(("?", "？")):
        return True
    if _EN_QUESTION_START.match(stripped):
        return True
    return bool(_CJK_CHAR.search(stripped)) and bool(_JA_QUESTION_END.search(stripped))


def _split_questions(text: str) -> list[str]:
    """Sentences grouped into questions: statements attach to the question they lead up to
    (context), and a question that leans on the one before ("Is this possible?") joins it."""
    parts: list[str] = []
    pending: list[str] = []
    for sentence in sentences(text):
        pending.append(sentence)
        if is_question(sentence):
            joined = " ".join(pending) if not _CJK_CHAR.search(sentence) else "".join(pending)
            if parts and len(pending) == 1 and _leans_on_previous(sentence):
                parts[-1] = f"{parts[-1]} {joined}"
            else:
                parts.append(joined)
            pending = []
    if pending:
        trailing = " ".join(pending)
        if parts:
            parts[-1] = f"{parts[-1]} {trailing}"
        else:
            parts.append(trailing)
    return parts


def _leans_on_previous(sentence: str) -> bool:
    """"Is this possible?", 「このような…」: a question about what the sentence before said.
    An English one that names things of its own ("Is it possible to save my mails?") stands alone."""
    if not _ANAPHORA.match(sentence):
        return False
    if _CJK_CHAR.search(sentence):
        return True
    words = re.findall(r"[A-Za-z0-9']+", sentence.lower())
    return sum(1 for w in words if w not in _EN_GENERIC and len(w) > 2) < 2


def _split_ja_connectives(text: str) -> list[str]:
    """「…か。また、…？」: split where a connective starts a new question after a question."""
    match = _JA_CONNECTIVE.search(text)
    if match is None:
        return [text]
    if match.start() == 0:
        return _split_ja_connectives(text[match.end() :]) if text[match.end() :].strip() else [text]
    before, after = text[: match.start()].strip(), text[match.end() :]
    # 「…。また、…」 starts a new sentence: split. Mid-sentence (「…か、また、…」) only after a question.
    if not after.strip() or not (before.endswith(tuple(_SENTENCE_MARKS)) or is_question(before.rstrip("、，, "))):
        return [text]
    return [before, *_split_ja_connectives(after)]


def _split_en_and(text: str) -> list[str]:
    match = _EN_AND.search(text)
    if match is None or len(text[: match.start()].split()) < 3:
        return _split_en_comma_and(text)
    first, second = text[: match.start()].rstrip(" ,"), text[match.end() :]
    if not first.endswith(("?", ".", "!")) and text.rstrip().endswith("?"):
        first += "?"
    return [first, *_split_en_and(second[:1].upper() + second[1:])]


def _split_en_comma_and(text: str) -> list[str]:
    """"Q1 (…, is there a way?), and Q2?": a comma-"and" between two whole questions, each of at
    least EN_CLAUSE_WORDS words, the first of which asks something and the second ends in "?"."""
    for match in _EN_COMMA_AND.finditer(text):
        first, second = text[: match.start()], text[match.end() :]
        if (
            len(first.split()) >= EN_CLAUSE_WORDS
            and len(second.split()) >= EN_CLAUSE_WORDS
            and second.rstrip().endswith("?")
            and _EN_ASKS.search(first)
        ):
            return [first.rstrip(" ,") + "?", second[:1].upper() + second[1:]]
    return [text]


def _split_ja_and(text: str) -> list[str]:
    stripped = text.strip()
    match = _JA_EMBEDDED.match(stripped)
    if match is None:
        match = _JA_AND_NOUNS.match(stripped)
        # 「AとBのC」 is (A and B)'s C unless A is itself an の-phrase (「返品の期限と送料」).
        if match is None or _quotative(match.group("b")) or ("の" in match.group("b") and "の" not in match.group("a")):
            return [text]
    tail = match.group("tail")
    return [match.group("a").strip() + tail, match.group("b").strip() + tail]


def _quotative(after: str) -> bool:
    """Whether と introduces a quotation or a partner (「Aと言う」「Aと一緒に」), not a list."""
    return after.startswith(("言", "い", "呼", "し", "な", "思", "共", "一緒", "比べ", "同じ", "異な", "違"))


def _stands_alone(part: str, *, follow_up: bool) -> bool:
    """Whether a part says enough to be searched by itself; a `follow_up` (not the first part)
    must also not lean on the one before it."""
    if _CJK_CHAR.search(part):
        if len(_CJK_CHAR.findall(part)) < MIN_PART_CHARS_CJK:
            return False
        if not follow_up:
            return True
        if part.lstrip()[:1] in _JA_PARTICLES:  # 「…？はどこが…」: a title's ？, not a sentence end
            return False
        return len(part.strip()) > _JA_SHORT_FOLLOW_UP or bool(_JA_TOPIC.search(part))
    words = re.findall(r"[A-Za-z0-9']+", part.lower())
    return len(words) >= MIN_PART_WORDS and any(w not in _EN_GENERIC and len(w) > 2 for w in words)


def _merge_fragments(parts: list[str]) -> list[str]:
    merged: list[str] = []
    for part in parts:
        if merged and (not _stands_alone(merged[-1], follow_up=len(merged) > 1)
                       or not _stands_alone(part, follow_up=True)):
            merged[-1] = f"{merged[-1]} {part}"
        else:
            merged.append(part)
    return merged


class BaseDecomposer:
    """Turns a question into the sub-questions to search for. One hook: `decompose`."""

    name = "base"

    def decompose(self, question: str) -> list[str]:
        raise NotImplementedError


class RuleDecomposer(BaseDecomposer):
    """The rules of this module: deterministic, offline, a few microseconds a question."""

    name = "rules"

    def decompose(self, question: str) -> list[str]:
        return decompose_question(question)


@lru_cache(maxsize=4)
def _build(path: str) -> BaseDecomposer:
    return import_string(path)()


def get_decomposer() -> BaseDecomposer:
    """The decomposer named by settings.SEARCH_DECOMPOSER (a dotted class path)."""
    return _build(getattr(settings, "SEARCH_DECOMPOSER", "search.engine.decompose.RuleDecomposer"))
