"""The rule-based decomposer: compound questions split into their parts; single ones stay whole."""

from __future__ import annotations

import pytest

from search.engine.decompose import MAX_PARTS, RuleDecomposer, decompose_question, get_decomposer, is_question, sentences


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("返品の期限と送料は？", ["返品の期限は？", "送料は？"]),
        ("梅雨前線と寒帯ジェット気流は？", ["梅雨前線は？", "寒帯ジェット気流は？"]),
        ("返品の方法と配送料金について教えて", ["返品の方法について教えて", "配送料金について教えて"]),
        ("返品できますか。また、送料はかかりますか？", ["返品できますか。", "送料はかかりますか？"]),
        ("返品の期限はいつですか？ 送料は誰が払いますか？", ["返品の期限はいつですか？", "送料は誰が払いますか？"]),
        ("保証書の有効期限。また、修理の窓口はどこ？", ["保証書の有効期限。", "修理の窓口はどこ？"]),
        (
            "保証書は何年有効かと、修理の受付窓口はどこかについて教えて",
            ["保証書は何年有効かについて教えて", "修理の受付窓口はどこかについて教えて"],
        ),
    ],
)
def test_japanese_compound_questions_split(question, parts):
    assert decompose_question(question) == parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "How do I reset my password, and can I delete my account?",
            ["How do I reset my password?", "Can I delete my account?"],
        ),
        (
            "How do I reset my password and how do I delete my account?",
            ["How do I reset my password?", "How do I delete my account?"],
        ),
        (
            "How do I export my contacts to a spreadsheet. Can I undo a sent message in my mail client?",
            ["How do I export my contacts to a spreadsheet.", "Can I undo a sent message in my mail client?"],
        ),
        ("Where is the invoice? What is the refund period?", ["Where is the invoice?", "What is the refund period?"]),
        (
            "My calendar shows duplicate events, is there a fix, and can my team share one address book?",
            ["My calendar shows duplicate events, is there a fix?", "Can my team share one address book?"],
        ),
        (
            "Why does my laptop battery drain overnight? Is it possible to export all my notes as text files?",
            ["Why does my laptop battery drain overnight?", "Is it possible to export all my notes as text files?"],
        ),
    ],
)
def test_english_compound_questions_split(question, parts):
    assert decompose_question(question) == parts


def test_bulleted_and_numbered_lists_split_into_their_items():
    assert decompose_question("- reset password\n- delete account\n- change email") == [
        "reset password",
        "delete account",
        "change email",
    ]
    assert decompose_question("1. 返品の方法\n2. 送料") == ["返品の方法", "送料"]


@pytest.mark.parametrize(
    "question",
    [
        "What is the difference between cats and dogs?",
        "Is there a web app for drawing simple diagrams and flowcharts?",
        "Why can my browser see when I am and when I am not logged in.",
        "Can I share a search from my phone and have the results look the same?",
        "I'd like to keep a local copy of my favourite video. Is this possible?",
        "How can I be sure that the person I wrote to has read my mail. Is there a way to know?",
        "Thanks! How do I link two cells?",
        "Deltex binds the translation factor. No interaction between the two was ever found.",
        "北と南の気団が衝突した部分にできるものは？",
        "中央委員と准中央委員の合計数は？",
        "シャケとサケの関係は？",
        "AとBと言われるのは何か？",
        "梅雨の期間中ほとんど雨が降らない年がある。このような梅雨のことをなんというか？",
        "「恥を知れ！（Shame on you!）」と言ったのは誰？",
        "国の許可を取った上での営業は合法ですか？違法ですか？",
        "ポケモンの家あつまる？はどこが作成しているか？",
        "返品",
        "refund",
    ],
)
def test_single_questions_are_not_split(question):
    assert decompose_question(question) == [question]


def test_no_part_is_dropped_when_there_are_more_than_the_maximum():
    items = [f"- question number {i} about topic {i}" for i in range(MAX_PARTS + 2)]
    parts = decompose_question("\n".join(items))

    assert len(parts) == MAX_PARTS
    assert all(f"topic {i}" in " ".join(parts) for i in range(MAX_PARTS + 2))


def test_sentences_never_end_inside_brackets_or_quotes():
    assert sentences("「恥を知れ！」と言ったのは誰？次の質問。") == ["「恥を知れ！」と言ったのは誰？", "次の質問。"]


def test_question_form_is_recognised_in_both_languages():
    assert is_question("Can I delete my account")
    assert is_question("送料はいくらですか")
    assert not is_question("Refunds take five days.")
    assert not is_question("返品は30日以内に受け付けます。")


def test_empty_question_comes_back_as_it_was():
    assert decompose_question("   ") == ["   "]


def test_settings_choose_the_decomposer(settings):
    settings.SEARCH_DECOMPOSER = "search.engine.decompose.RuleDecomposer"

    assert isinstance(get_decomposer(), RuleDecomposer)
