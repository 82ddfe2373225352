"""Review item 9: every page runs under a Content-Security-Policy, with no violation in Chromium.

Before, no page sent a Content-Security-Policy. The admin, the search and ingestion pages, the
page that shows a new API key and Swagger UI (/api/docs/) must all work under one that allows
no inline script or style: the test fails on any violation the browser reports.
"""

from __future__ import annotations

import pytest

from cms.models import ApiKey, Entry
from tests.factories import ContentTypeFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

# Recorded from the first script of every document, before any of the page's own.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI || "inline"} ${event.sourceFile}:${event.lineNumber}`);
});
"""


class Watch:
    """CSP violations of a page: its securitypolicyviolation events and console messages."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        page.context.add_init_script(RECORD_VIOLATIONS)
        page.on("console", lambda message: self.console.append(message.text)
                if "Content Security Policy" in message.text else None)

    def goto(self, path: str):
        response = self.page.goto(path)
        assert "default-src 'self'" in response.headers.get("content-security-policy", ""), path
        assert "unsafe-inline" not in response.headers["content-security-policy"]
        return response

    def violations(self) -> list[str]:
        return self.page.evaluate("window.__cspViolations || []") + self.console


@pytest.fixture
def helpdesk(db):
    workspace = WorkspaceFactory(slug="helpdesk")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq",
                             fields=[{"id": "title", "label": "Title", "type": "text", "required": True},
                                     {"id": "body", "label": "Body", "type": "richtext"}])
    entry_make(faq, title="Refund policy")
    return workspace


def test_admin_and_search_pages_run_under_the_csp(browser, live_server, login_page, screenshot, helpdesk,
                                                 no_backend):
    anonymous = browser.new_context(base_url=live_server.url).new_page()
    watch_login = Watch(anonymous)
    watch_login.goto("/admin/login/")
    assert anonymous.locator("#id_username").is_visible()

    page = login_page(UserFactory(username="root", is_superuser=True))
    watch = Watch(page)
    for path, ready, name in [
        ("/admin/", "#search-ingestion-module", "csp-admin-index"),
        ("/admin/search/helpdesk/?q=refund&mode=fulltext", "#search-results li.search-hit", "csp-admin-search"),
        ("/admin/ingestion/status/helpdesk/", "#content-main", "csp-ingestion-status"),
        ("/admin/search/helpdesk/insights/", "#insights-chart", "csp-search-insights"),
        ("/admin/cms/entry/", "#changelist", "csp-entry-changelist"),
        # With a query: the match column shows each entry's snippet (search/interfaces/admin/entries.py).
        ("/admin/cms/entry/?q=refund", "#changelist .search-snippet mark", "csp-entry-changelist-query"),
        ("/admin/cms/contenttype/?q=faq", "#changelist", "csp-contenttype-changelist-query"),
        ("/admin/cms/promotion/?q=refund", "#changelist", "csp-promotion-changelist-query"),
        ("/admin/cms/apikey/?q=agent", "#changelist", "csp-apikey-changelist-query"),
        ("/admin/search/helpdesk/?q=refund&mode=hybrid", "#content-main", "csp-admin-search-hybrid"),
        ("/admin/search/helpdesk/insights/?days=7", "#insights-chart", "csp-search-insights-days"),
        ("/admin/search/helpdesk/synonyms/?terms=refund", "#content-main", "csp-synonyms-terms"),
        ("/admin/cms/contenttype/add/", "form", "csp-contenttype-add"),
        ("/admin/cms/entry/add/", "#entry_content_type_form", "csp-entry-add-choose-type"),
        (f"/admin/cms/entry/add/?content_type={helpdesk.content_types.get().pk}", "#id_data__title", "csp-entry-add"),
        (f"/admin/cms/entry/{Entry.objects.get().pk}/change/", "#entry-chunks", "csp-entry-change"),
        # Issue 36: the field builder, the Markdown editor (EasyMDE, vendored), the live status fragments.
        (f"/admin/cms/contenttype/{helpdesk.content_types.get().pk}/change/", "#field-builder li[data-field=body]",
         "csp-contenttype-field-builder"),
        (f"/admin/cms/entry/{Entry.objects.get().pk}/change/", ".field-data__body .EasyMDEContainer .CodeMirror",
         "csp-entry-change-markdown"),
        ("/admin/ingestion/status/helpdesk/?fragment=live", "#ingestion-live", "csp-ingestion-live-fragment"),
        (f"/admin/ingestion/status/helpdesk/entries/{Entry.objects.get().pk}/chunks/", "#entry-chunks",
         "csp-entry-chunks-fragment"),
        ("/admin/search/helpdesk/insights/?days=30", "#insights-low-ctr", "csp-search-insights-modes"),
        # Issue 36: the search page without a query, with a facet chosen (its chips, Pin for this query),
        # and the promotion add page, whose entry is chosen by searching (the admin's select2 autocomplete).
        ("/admin/search/helpdesk/", "#admin-search-form", "csp-admin-search-no-query"),
        ("/admin/search/helpdesk/?q=refund&mode=fulltext&content_type=faq", "#search-chips .chip-remove",
         "csp-admin-search-chips"),
        ("/admin/search/helpdesk/?q=refund&mode=hybrid&ef_search=80", "#search-advanced-options[open]",
         "csp-admin-search-advanced"),
        ("/admin/cms/promotion/add/", ".field-entry .select2-container", "csp-promotion-add"),
    ]:
        watch.goto(path)
        page.wait_for_selector(ready)
        screenshot(page, name)

    # A new key's page: its click-to-select handler and its style come from static files.
    watch.goto("/admin/cms/apikey/add/")
    page.select_option("#id_workspace", label=str(helpdesk))
    page.fill("#id_name", "agent")
    page.click("input[name=_save]")
    page.wait_for_selector("#api-key-secret")
    page.click("#api-key-secret")
    selected = page.evaluate("(() => { const el = document.getElementById('api-key-secret');"
                             " return el.value.substring(el.selectionStart, el.selectionEnd); })()")
    assert selected.startswith("cms_") and ApiKey.objects.count() == 1  # the click handler, from a file
    assert page.evaluate("getComputedStyle(document.getElementById('api-key-secret')).fontFamily") == "monospace"
    screenshot(page, "csp-apikey-created")

    assert watch_login.violations() == []
    assert watch.violations() == []
    changelist = page.context.new_page()
    changelist.goto("/admin/cms/entry/?q=refund")
    # The match column's width comes from search/static/search/admin_search.css (10rem since issue 52,
    # item 6: the entry list fits beside the filters at 1280 px).
    assert changelist.evaluate(
        "getComputedStyle(document.querySelector('#changelist .search-snippet')).minWidth") == "160px"
    entry_page = page.context.new_page()
    entry_page.goto(f"/admin/cms/entry/{Entry.objects.get().pk}/change/")
    assert entry_page.evaluate(  # the entry page's style comes from cms/static/cms/entry_form.css
        "getComputedStyle(document.getElementById('entry-search-links')).marginTop") == "8px"
    search_form = page.context.new_page()
    search_form.goto("/admin/search/helpdesk/")
    assert search_form.evaluate(
        "getComputedStyle(document.querySelector('.admin-search form#admin-search-form')).borderTopStyle") == "solid"


def test_swagger_ui_runs_under_the_csp(browser, live_server, screenshot):
    page = browser.new_context(base_url=live_server.url).new_page()
    watch = Watch(page)

    watch.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock-summary-path", timeout=20_000)
    screenshot(page, "csp-swagger-ui")

    assert page.locator(".swagger-ui .opblock").count() >= 4
    assert watch.violations() == []
