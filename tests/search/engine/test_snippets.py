"""search.engine.snippets: matches found case-insensitively, highlighted with <mark>, every other character escaped."""

from __future__ import annotations

from django.utils.safestring import SafeString

from search.engine.snippets import (
    ELLIPSIS,
    excerpt,
    fold,
    highlight_html,
    match_spans,
    query_snippet_html,
    query_terms,
)


def test_english_match_is_found_whatever_the_case():
    text = "Refunds: a REFUND takes 5 days."
    assert match_spans(text, ["refund"]) == ((0, 6), (11, 17))
    assert highlight_html(text, match_spans(text, ["refund"])) == (
        "<mark>Refund</mark>s: a <mark>REFUND</mark> takes 5 days."
    )


def test_japanese_match_is_highlighted():
    text = "返品・返金について。返品は30日以内です。"
    spans = match_spans(text, ["返品"])
    assert spans == ((0, 2), (10, 12))
    assert highlight_html(text, spans) == "<mark>返品</mark>・返金について。<mark>返品</mark>は30日以内です。"


def test_full_width_latin_folds_like_ascii():
    assert match_spans("ＲＥＦＵＮＤ policy", ["ｒｅｆｕｎｄ"]) == ((0, 6),)


def test_fold_keeps_offsets_when_a_lowercase_is_longer():
    # "İ".lower() is two characters; folding keeps it, so offsets stay those of the original.
    text = "İstanbul refund"
    assert len(fold(text)) == len(text)
    assert match_spans(text, ["refund"]) == ((9, 15),)


def test_script_tag_is_escaped_and_match_inside_it_still_highlighted():
    text = '<script>alert("refund")</script>'
    html = highlight_html(text, match_spans(text, ["refund"]))
    assert isinstance(html, SafeString)
    assert html == "&lt;script&gt;alert(&quot;<mark>refund</mark>&quot;)&lt;/script&gt;"
    assert "<script" not in html


def test_img_onerror_is_escaped():
    text = "<img src=x onerror=alert(1)> refund"
    html = highlight_html(text, match_spans(text, ["onerror"]))
    assert html == "&lt;img src=x <mark>onerror</mark>=alert(1)&gt; refund"
    assert "<img" not in html


def test_query_that_is_markup_is_escaped_inside_the_mark():
    text = "Use <b> for bold"
    assert highlight_html(text, match_spans(text, ["<b>"])) == "Use <mark>&lt;b&gt;</mark> for bold"


def test_bad_spans_never_break_markup():
    text = "abcdef"
    # Out of range, empty, reversed and overlapping spans are ignored or clipped.
    assert highlight_html(text, [(4, 99), (-5, 1), (3, 3), (5, 2), (0, 2)]) == "<mark>a</mark><mark>b</mark>cd<mark>ef</mark>"


def test_overlapping_terms_merge_into_one_mark():
    assert match_spans("refunding", ["refund", "fundi"]) == ((0, 7),)
    assert highlight_html("refunding", match_spans("refunding", ["refund", "fundi"])) == "<mark>refundi</mark>ng"


def test_excerpt_keeps_context_before_the_match_and_moves_spans():
    text = "x" * 100 + "refund" + "y" * 100
    shown, spans = excerpt(text, match_spans(text, ["refund"]), before=10, max_chars=30)
    assert shown == ELLIPSIS + "x" * 10 + "refund" + "y" * 14 + ELLIPSIS
    assert [shown[s:e] for s, e in spans] == ["refund"]


def test_excerpt_without_a_match_is_the_start():
    shown, spans = excerpt("abc" * 200, (), max_chars=10)
    assert (shown, spans) == ("abcabcabca" + ELLIPSIS, ())


def test_excerpt_near_the_end_uses_the_room_before():
    text = "a" * 50 + "refund"
    shown, spans = excerpt(text, match_spans(text, ["refund"]), before=5, max_chars=20)
    assert shown == ELLIPSIS + "a" * 14 + "refund"
    assert [shown[s:e] for s, e in spans] == ["refund"]


def test_query_terms_keep_words_and_cjk_runs():
    assert query_terms("How do refunds work?") == ["How do refunds work?", "How", "refunds", "work"]
    assert query_terms("返品 の 手続き") == ["返品 の 手続き", "返品", "手続き"]


def test_query_snippet_highlights_each_word_escaped():
    html = query_snippet_html("<p>Refund policy: refunds within 30 days.</p>", "refund policy")
    assert html == "&lt;p&gt;<mark>Refund policy</mark>: <mark>refund</mark>s within 30 days.&lt;/p&gt;"
