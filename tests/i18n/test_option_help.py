"""The search page's "Advanced" settings carry their declared help in the editor's language, from the
one declaration (search/contract/options.py, marked with gettext_noop); the OpenAPI document and the
MCP tools' input schemas say the same help in English whatever the browser asks."""

from __future__ import annotations

import asyncio
import html
import re

import pytest
from django.utils import translation

from search.contract.option_schemas import options_json_schema
from search.interfaces.admin.options import page_options
from search.interfaces.mcp.server import build_mcp_server
from search.kinds import SEARCH_KINDS
from tests.factories import MembershipFactory, UserFactory

EF_SEARCH_HELP = "HNSW candidate list size: higher finds more, slower."
FUSION_HELP_START = "adaptive (default): z-scored legs weighted by the query's own features;"
TRANSLATED = {
    "ja": ("HNSW の候補リストの大きさ。大きいほど多く見つかりますが、遅くなります。",
           "adaptive (既定): キーワード検索とセマンティック検索のスコアを z スコアに標準化し、"),
    "zh-HK": ("HNSW 候選清單的大小：數值越大，找到的結果越多，但速度越慢。",
              "adaptive（預設）：將關鍵字搜尋與語意搜尋的分數標準化為 z 分數，"),
}


@pytest.fixture
def owner(workspace):
    user = UserFactory(username="owner")
    MembershipFactory(user=user, workspace=workspace, role="owner")
    return user


def advanced_helps(client, user, accept: str) -> dict[str, str]:
    """The hybrid search page's Advanced settings: {option name: its help as shown}."""
    client.force_login(user)
    response = client.get("/admin/search/acme/", {"mode": "hybrid"}, HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 200
    advanced = response.content.decode().split('id="search-advanced-options"', 1)[1]
    groups = re.findall(r'<div class="option-group advanced" data-option="([^"]+)">.*?<p class="help">(.*?)</p>',
                        advanced, re.S)
    return {name: html.unescape(help_text) for name, help_text in groups}


@pytest.mark.parametrize("accept", ["ja", "zh-HK"])
def test_advanced_settings_help_is_in_the_editors_language(client, owner, accept):
    helps = advanced_helps(client, owner, accept)

    ef_search, fusion_start = TRANSLATED[accept]
    assert helps["ef_search"] == ef_search
    assert helps["fusion"].startswith(fusion_start)
    shown = " ".join(helps.values())
    assert EF_SEARCH_HELP not in shown and FUSION_HELP_START not in shown


def test_advanced_settings_help_on_an_english_page_is_the_declarations(client, owner):
    helps = advanced_helps(client, owner, "en")

    assert helps["ef_search"] == EF_SEARCH_HELP
    assert helps["fusion"].startswith(FUSION_HELP_START)


@pytest.mark.parametrize("language", ["ja", "zh-hant"])
def test_every_advanced_setting_of_every_search_has_its_help_translated(language):
    with translation.override("en"):
        english = {(kind.name, option.name): str(option.help) for kind in SEARCH_KINDS.values()
                   for option in page_options(kind, {}) if option.advanced}
    with translation.override(language):
        shown = {(kind.name, option.name): str(option.help) for kind in SEARCH_KINDS.values()
                 for option in page_options(kind, {}) if option.advanced}

    assert english and all(english.values())
    assert [key for key, help_text in shown.items() if help_text == english[key]] == []


def test_openapi_document_keeps_the_english_help_whatever_the_browser_asks(client):
    documents = {accept: client.get("/api/schema/", HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE=accept)
                 for accept in ("en", "ja", "zh-HK")}

    assert {accept: response.status_code for accept, response in documents.items()} == {"en": 200, "ja": 200,
                                                                                         "zh-HK": 200}
    assert documents["ja"].content == documents["en"].content == documents["zh-HK"].content
    assert EF_SEARCH_HELP in documents["ja"].json()["components"]["schemas"]["HybridSearchRequest"]["properties"][
        "ef_search"]["description"]


@pytest.mark.parametrize("language", ["ja", "zh-hant"])
def test_mcp_tools_keep_the_english_help_in_any_active_language(language):
    options_json_schema.cache_clear()  # built afresh while another language is active
    try:
        with translation.override(language):
            tools = {tool.name: tool for tool in asyncio.run(build_mcp_server(caller=lambda: None).list_tools())}
    finally:
        options_json_schema.cache_clear()

    properties = tools["hybrid_search"].input_schema["properties"]
    assert properties["ef_search"]["description"] == EF_SEARCH_HELP
    assert properties["fusion"]["description"].startswith(FUSION_HELP_START)
