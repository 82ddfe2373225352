"""The admin speaks the browser's language (en, ja, zh-hant), the chooser overrides it, content keeps
its own `lang`, and the API and MCP answer in English with the same codes whatever the browser asks."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cms.content_language import content_language
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, entry_make

FIELDS = [{"id": "title", "label": "Title", "type": "text", "required": True}, {"id": "body", "label": "Body", "type": "text"}]


@pytest.fixture
def owner(workspace):
    user = UserFactory(username="owner")
    MembershipFactory(user=user, workspace=workspace, role="owner")
    return user


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]*)"', html).group(1)


@pytest.mark.parametrize(("accept", "lang", "word"), [
    ("ja", "ja", "ワークスペース内を検索"),
    ("ja-JP,ja;q=0.9,en;q=0.5", "ja", "ワークスペース内を検索"),
    ("zh-HK", "zh-hant", "在工作區中搜尋"),
    ("zh-TW", "zh-hant", "在工作區中搜尋"),
    ("zh-Hant", "zh-hant", "在工作區中搜尋"),
    ("zh-Hant-HK,zh;q=0.8", "zh-hant", "在工作區中搜尋"),
    ("en-US,en;q=0.9", "en", "Search in a workspace"),
    ("zh-CN", "zh-hant", "在工作區中搜尋"),
    ("fr-FR", "en", "Search in a workspace"),
])
def test_accept_language_chooses_the_admin_language(client, owner, accept, lang, word):
    client.force_login(owner)
    response = client.get(reverse("admin_search_index"), HTTP_ACCEPT_LANGUAGE=accept)
    html = response.content.decode()
    assert (response.status_code, html_lang(html), response["Content-Language"]) == (200, lang, lang)
    assert word in html


def test_language_chooser_overrides_accept_language(client, owner):
    client.force_login(owner)
    response = client.post(reverse("set_language"), {"language": "zh-hant", "next": "/admin/"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert (response.status_code, response["Location"]) == (302, "/admin/")
    html = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert html_lang(html) == "zh-hant" and "搜尋與匯入" in html


def test_header_has_the_language_chooser(client, owner):
    client.force_login(owner)
    html = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    chooser = re.search(r'<form action="/i18n/setlang/" method="post" class="language-chooser".*?</form>', html, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)" lang="[^"]+"( selected)?>', chooser) == [("en", ""), ("ja", " selected"), ("zh-hant", "")]


def test_api_error_stays_english_with_its_code_whatever_the_browser_asks(client, owner):
    client.force_login(owner)
    url = "/api/v1/workspaces/acme/search/entries?q=refund&limit=0"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    for accept in ("ja", "zh-HK"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=accept)
        assert response.status_code == english.status_code == 400
        assert response.json() == english.json()
        assert "Content-Language" not in response
    assert english.json()["message"].isascii()


def test_api_unknown_route_stays_english(client):
    response = client.get("/api/v1/nowhere", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 404 and response.json()["message"].isascii()


def test_mcp_stays_english(client):
    response = client.post("/mcp/", data="{", content_type="application/json", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.content.decode().isascii()


def test_search_page_results_carry_their_own_language_in_a_japanese_interface(client, owner, workspace):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS)
    entry_make(faq, title="Refund policy", body="Refunds take 5 days.")
    entry_make(faq, title="返品について", body="Refund 返品は30日以内に受け付けます。")
    entry_make(faq, title="退貨政策", body="Refund 退貨須於七日內申請。")
    client.force_login(owner)
    html = client.get(reverse("admin_search", args=["acme"]) + "?q=refund", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert html_lang(html) == "ja" and "新しい順" in html
    hits = re.findall(r'<li class="search-hit"[^>]* lang="([^"]*)">\s*<h3><a href="[^"]*">(.*?)</a>.*?<p class="hit-meta" lang="([^"]*)">.*?<p class="snippet"( lang="[^"]*")?>', html, re.S)
    assert {re.sub(r"<[^>]+>", "", title): (lang, meta, own) for lang, title, meta, own in hits} == {
        "Refund policy": ("en", "ja", ""), "返品について": ("ja", "ja", ""), "退貨政策": ("zh-Hant", "ja", "")}


@pytest.mark.parametrize(("text", "lang"), [
    ("返品の手続き", "ja"),            # kana
    ("ﾘﾝｺﾞ", "ja"),                    # half-width katakana
    ("駅前の売店", "ja"),              # Han only, with Japanese shinjitai (駅, 売)
    ("退貨政策", "zh-Hant"),           # Han only
    ("東京大學", "zh-Hant"),           # Han only, no shinjitai: the documented default
    ("환불 정책", "ko"),
    ("Refund policy", "en"),
    ("Crème brûlée", "en"),
    ("2026-12-03", ""),
    ("", ""),
])
def test_content_language_by_script(text, lang):
    assert content_language(text) == lang


def test_declared_language_wins_over_the_script():
    assert content_language("東京大学", declared="ja") == "ja"
