"""The chunker on real Markdown, Japanese text and richtext HTML (pure: no database)."""

from __future__ import annotations

import hashlib
import re

import pytest

from ingestion.chunking import ChunkDraft, chunk_text, html_to_text, richtext_to_text

REFUND_POLICY_MD = """\
# Refund policy

This page explains how refunds work for orders placed in the Acme online store. It applies to \
customers in the EU, the UK and Japan. If you bought through a reseller, contact them instead.

## Eligibility

You can ask for a refund within 30 days of delivery. The item must be unused and in its \
original packaging. Gift cards, downloadable software and personalised items cannot be refunded.

Some items have their own rules:

- Mattresses can be returned within 100 nights, even if used.
- Opened cosmetics are refunded only if they are faulty.
- Large appliances must be collected by our carrier; see "Collection" below.

## Timing

Refunds are issued within 5 business days of the return reaching our warehouse. Card refunds \
usually appear on your statement 3.5 days later on average, e.g. a refund issued on Monday shows \
by Thursday. Bank transfers take longer. PayPal refunds are instant once issued. Refunds to \
store credit are instant too, and they never expire.

### Partial refunds

If an item comes back damaged, we may refund part of its price. We will email you photos of the \
damage and the amount before we issue anything. You can dispute the amount within 14 days.

## Requesting a refund through the API

Merchants on the Business plan can issue refunds programmatically. Send a POST request with the \
order id and the amount in minor units:

```bash
# Refunds are idempotent per order. Retry on 5xx only!
curl -X POST https://api.example.com/v2/refunds \\
  -H "Authorization: Bearer $TOKEN" \\
  -d '{"order": "ord_123", "amount": 19.99}'
```

The API answers with the refund id. Poll `GET /v2/refunds/{id}` until its status is `succeeded` \
or `failed`. Never retry a 4xx response: it will fail again.

Collection
----------

Our carrier collects large items between 8 a.m. and 6 p.m. on weekdays. You will get a two-hour \
window by text message the day before. If nobody is home, the driver leaves a card and we try \
once more.
"""

RETURNS_JA = """\
商品到着後30日以内であれば、未使用かつ元の梱包のままの商品に限り返品を受け付けております。\
ギフトカード、ダウンロード版ソフトウェア、名入れ商品は返品の対象外です。\
ご不明な点がございましたら、カスタマーサポートまでお問い合わせください。

返金は、返品された商品が当社の倉庫に到着してから5営業日以内に行います。\
クレジットカードへの返金は、通常その後3.5日ほどで明細に反映されます。\
銀行振込の場合は、さらに数日かかることがあります。

商品が破損した状態で返送された場合、代金の一部のみを返金することがあります。\
その際は、破損箇所の写真と返金額をメールでお知らせします。\
金額にご納得いただけない場合は、14日以内に異議を申し立てることができます！

大型家電の回収は、平日の午前8時から午後6時までの間に行います。\
前日にショートメッセージで2時間の時間帯をお知らせします。\
ご不在の場合は、ドライバーが不在票を残し、もう一度お伺いします。\
それでも受け取れない場合はどうすればよいですか？\
その場合はカスタマーサポートまでご連絡ください。
"""

RICHTEXT_HTML = """\
<h2>Shipping &amp; delivery</h2>
<p>We ship <strong>worldwide</strong> from Osaka.&nbsp;Orders placed before 2&nbsp;p.m. leave
the same day.</p>
<h3>Costs</h3>
<ul><li>Japan: free over &yen;5,000</li><li>Elsewhere: from $12 &lt;tracked&gt;</li></ul>
<p>Duties are paid by the recipient.<br>See the <a href="/customs">customs page</a>.</p>
<script>trackPageView("shipping")</script>
"""


def _body(draft: ChunkDraft) -> str:
    """The chunk without the heading line it starts with."""
    prefix = f"{draft.heading}\n" if draft.heading else ""
    assert draft.text.startswith(prefix)
    return draft.text[len(prefix):]


def _japanese_sentences(text: str) -> list[str]:
    return re.findall(r"[^。！？\n]+[。！？]", text)


def test_markdown_chunks_carry_their_heading_path():
    headings = {draft.heading for draft in chunk_text(REFUND_POLICY_MD, fmt="markdown", size=300)}

    assert headings == {
        "Refund policy",
        "Refund policy > Eligibility",
        "Refund policy > Timing",
        "Refund policy > Timing > Partial refunds",
        "Refund policy > Requesting a refund through the API",
        "Refund policy > Collection",
    }


def test_every_chunk_starts_with_its_section_heading():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=300)

    assert all(draft.text.startswith(f"{draft.heading}\n") for draft in drafts)


def test_section_text_stays_under_its_own_heading():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=300)

    partial = [d for d in drafts if d.heading == "Refund policy > Timing > Partial refunds"]
    assert "You can dispute the amount within 14 days." in partial[-1].text
    assert not any("dispute" in d.text for d in drafts if d not in partial)


def test_no_chunk_ends_with_a_heading():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=200)
    heading_lines = {"Refund policy", "Eligibility", "Timing", "Partial refunds", "Collection",
                     "Requesting a refund through the API"}

    assert all(draft.text.splitlines()[-1].lstrip("# ") not in heading_lines for draft in drafts)


@pytest.mark.parametrize("size", [120, 200, 300, 500])
def test_no_markdown_chunk_is_longer_than_size(size):
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=size)

    assert max(len(draft.text) for draft in drafts) <= size


@pytest.mark.parametrize("size", [60, 120, 300])
def test_no_japanese_chunk_is_longer_than_size(size):
    drafts = chunk_text(RETURNS_JA, size=size, overlap=30)

    assert max(len(draft.text) for draft in drafts) <= size


def test_consecutive_chunks_of_a_section_overlap_by_whole_sentences():
    drafts = chunk_text(RETURNS_JA, size=120, overlap=40)

    assert len(drafts) > 3
    for previous, following in zip(drafts, drafts[1:]):
        first_sentence = _japanese_sentences(following.text)[0]
        assert previous.text.endswith(first_sentence)


def test_overlap_is_about_the_requested_length():
    drafts = chunk_text(RETURNS_JA, size=120, overlap=40)

    for previous, following in zip(drafts, drafts[1:]):
        shared = next(n for n in range(len(following.text), 0, -1) if previous.text.endswith(following.text[:n]))
        assert 0 < shared <= 60  # whole sentences: up to 1.5x when one sentence is longer


def test_overlap_does_not_cross_into_another_section():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=200)

    timing = [d for d in drafts if d.heading == "Refund policy > Timing"]
    partial = [d for d in drafts if d.heading == "Refund policy > Timing > Partial refunds"]
    assert not any("PayPal" in d.text or "store credit" in d.text for d in partial)
    assert not any("damaged" in d.text for d in timing)


def test_japanese_sentences_are_never_cut():
    drafts = chunk_text(RETURNS_JA, size=100, overlap=30)

    for sentence in _japanese_sentences(RETURNS_JA):
        assert any(sentence in draft.text for draft in drafts), sentence


def test_japanese_chunks_end_at_sentence_ends():
    drafts = chunk_text(RETURNS_JA, size=100, overlap=30)

    assert all(draft.text[-1] in "。！？" for draft in drafts)


def test_english_chunks_end_at_sentence_ends():
    prose = "\n\n".join(block for block in REFUND_POLICY_MD.split("\n\n") if block[0].isalpha() and ":" not in block)
    drafts = chunk_text(prose, size=150, overlap=50)

    assert len(drafts) > 5
    assert all(draft.text[-1] in ".!?" for draft in drafts)


def test_decimal_point_is_not_a_sentence_end():
    drafts = chunk_text("Card refunds appear 3.5 days later. Bank transfers take longer.", size=40, overlap=0)

    assert [d.text for d in drafts] == ["Card refunds appear 3.5 days later.", "Bank transfers take longer."]


def test_abbreviation_followed_by_lowercase_is_not_a_sentence_end():
    text = "Some refunds are instant, e.g. those to store credit. Bank transfers take longer."
    drafts = chunk_text(text, size=60, overlap=0)

    assert drafts[0].text == "Some refunds are instant, e.g. those to store credit."


def test_code_block_is_kept_whole_when_it_fits():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=400)

    code = REFUND_POLICY_MD[REFUND_POLICY_MD.index("```bash"):REFUND_POLICY_MD.index("```\n\nThe API") + 3]
    assert any(code in draft.text for draft in drafts)


def test_hash_line_inside_a_code_block_is_not_a_heading():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=400)

    assert not any("Refunds are idempotent" in draft.heading for draft in drafts)


def test_setext_heading_starts_a_section():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=400)

    collection = [d for d in drafts if d.heading == "Refund policy > Collection"]
    assert collection[0].text.startswith("Refund policy > Collection\nOur carrier collects")


def test_run_without_any_break_is_hard_split_within_size():
    text = "See https://example.com/" + "a" * 230 + " for details."
    drafts = chunk_text(text, size=100, overlap=0)

    assert max(len(d.text) for d in drafts) <= 100
    assert "".join(d.text for d in drafts).replace(" ", "") == text.replace(" ", "")


def test_long_japanese_sentence_is_split_at_commas_first():
    sentence = "、".join(["返品された商品が当社の倉庫に到着してから"] * 6) + "返金します。"
    drafts = chunk_text(sentence, size=60, overlap=0)

    assert all(len(d.text) <= 60 for d in drafts)
    assert all(d.text.endswith(("、", "。")) for d in drafts)


def test_chunking_is_deterministic():
    first = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=200, overlap=60)
    second = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=200, overlap=60)

    assert first == second


def test_ordinals_count_from_zero_in_document_order():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=200)

    assert [d.ordinal for d in drafts] == list(range(len(drafts)))


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t\n"])
def test_whitespace_only_input_gives_no_chunks(text):
    assert chunk_text(text) == []
    assert chunk_text(text, fmt="markdown") == []
    assert chunk_text(text, fmt="html") == []


def test_plain_text_has_no_headings():
    drafts = chunk_text("# Not a heading in plain text\n\nJust a paragraph.", fmt="plain")

    assert [d.heading for d in drafts] == [""]
    assert drafts[0].text.startswith("# Not a heading")


def test_html_to_text_strips_tags():
    text = html_to_text(RICHTEXT_HTML)

    assert "<" not in text.replace("<tracked>", "")
    assert "We ship worldwide from Osaka." in text


def test_html_to_text_unescapes_entities():
    text = html_to_text(RICHTEXT_HTML)

    assert "Shipping & delivery" in text
    assert "free over ¥5,000" in text
    assert "from $12 <tracked>" in text
    assert "before 2 p.m." in text


def test_html_to_text_keeps_headings_as_lines_and_blocks_apart():
    assert html_to_text("<h2>Costs</h2><p>One.</p><p>Two<br>lines</p><ul><li>a</li><li>b</li></ul>") == (
        "Costs\n\nOne.\n\nTwo\nlines\n\na\nb"
    )


def test_html_to_text_drops_scripts():
    assert "trackPageView" not in html_to_text(RICHTEXT_HTML)


def test_html_headings_are_section_headings():
    drafts = chunk_text(RICHTEXT_HTML, fmt="html", size=300)

    assert [d.heading for d in drafts] == ["Shipping & delivery", "Shipping & delivery > Costs"]
    assert drafts[1].text.startswith("Shipping & delivery > Costs\nJapan: free over ¥5,000")


def test_content_hash_is_sha256_of_the_text():
    draft = ChunkDraft(ordinal=0, text="返金は5営業日以内に行います。")

    assert draft.content_hash == hashlib.sha256("返金は5営業日以内に行います。".encode()).hexdigest()


def test_content_hash_ignores_ordinal_and_heading():
    assert ChunkDraft(0, "Same text.", "A").content_hash == ChunkDraft(7, "Same text.", "B").content_hash


def test_editing_one_section_changes_only_its_chunk_hashes():
    edited = REFUND_POLICY_MD.replace("within 14 days", "within 30 days")
    before = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=200)
    after = chunk_text(edited, fmt="markdown", size=200)

    changed = {a.heading for b, a in zip(before, after) if a.content_hash != b.content_hash}
    assert len(before) == len(after)
    assert changed == {"Refund policy > Timing > Partial refunds"}


def test_lead_in_sentence_ending_with_colon_stays_with_the_list():
    drafts = chunk_text(REFUND_POLICY_MD, fmt="markdown", size=300)

    lead_in = [d for d in drafts if "Some items have their own rules:" in d.text]
    assert len(lead_in) == 1
    assert "- Mattresses can be returned" in lead_in[0].text


def test_title_heads_every_chunk():
    text = " ".join(f"Sentence number {i} about refunds." for i in range(40))
    drafts = chunk_text(text, fmt="plain", size=200, overlap=0, title="Refund policy")
    assert len(drafts) > 1
    assert all(d.text.startswith("Refund policy\n") and len(d.text) <= 200 for d in drafts)


def test_title_stays_above_document_headings():
    drafts = chunk_text("# Timing\n\nRefunds take five days.", fmt="markdown", title="Refund policy")
    assert [d.heading for d in drafts] == ["Refund policy > Timing"]


# --- rich text: Markdown rendered, then read as text -------------------------------------------


def test_richtext_markdown_loses_its_marks_and_keeps_its_headings():
    drafts = chunk_text("# Pickup\n\nAt our **Kobe** counter, `walk-in` and _open_ daily.\n\n1. One\n2. Two",
                        fmt="richtext", title="Stores")
    assert [(d.heading, d.text) for d in drafts] == [
        ("Stores > Pickup", "Stores > Pickup\nAt our Kobe counter, walk-in and open daily.\n\nOne\nTwo")]


def test_richtext_html_value_reads_as_the_html_chunker_reads_it():
    assert [d.text for d in chunk_text(RICHTEXT_HTML, fmt="richtext", size=300)] == [
        d.text for d in chunk_text(RICHTEXT_HTML, fmt="html", size=300)]


def test_richtext_to_text_strips_markdown_and_html_alike():
    assert richtext_to_text("Ship **fast** & <b>free</b>\n\n## Costs") == "Ship fast & free\n\nCosts"
