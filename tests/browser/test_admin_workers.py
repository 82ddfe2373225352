"""In a real browser, in English, Japanese and Hong Kong Chinese: with no worker running, the
ingestion status page and the entry page say so ("no worker is running; N chunks wait") instead
of an estimate; once a real Celery worker starts, both pages refresh themselves to "embedded"."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import ngettext

from cms.models import Role
from ingestion.models import Chunk
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make
from tests.ingestion.worker_support import all_embedded, app_on_broker, broker, wait_until, workers  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.worker]

LOCALES = {"en": ("en-US", "en"), "ja": ("ja-JP", "ja"), "zh-HK": ("zh-HK", "zh-hant")}
# The live parts refresh every 2.5 s (ingestion/static/ingestion/live_status.js).
REFRESHED_MS = 60_000


@pytest.fixture
def support(transactional_db):
    workspace = WorkspaceFactory(slug="support", name="Support")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", semantic_search_enabled=True)
    entry = entry_make(faq, title="Refund policy", body="<p>Refunds reach the card within five days.</p>")
    entry_make(faq, title="Shipping", body="<p>Orders ship within two days.</p>")
    editor = UserFactory(username="editor")
    MembershipFactory(user=editor, workspace=workspace, role=Role.EDITOR)
    return workspace, entry, editor


def said(lang: str, singular: str, plural: str, count: int) -> str:
    with translation.override(lang):
        return ngettext(singular, plural, count) % {"counter": count}


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
@pytest.mark.parametrize("language", LOCALES)
def test_pages_say_no_worker_is_running_then_embedded_once_one_starts(
    workers, fake_backend, support, login_page, screenshot, language  # noqa: F811 - workers first: saves enqueue on its broker
):
    workspace, entry, editor = support
    locale, lang = LOCALES[language]
    waiting = Chunk.objects.pending().count()
    status = login_page(editor, locale=locale)
    status.goto(f"/admin/ingestion/status/{workspace.slug}/")
    banner = status.locator('[data-banner="no-worker"]')
    assert banner.inner_text() == said(
        lang, "No worker is running; %(counter)s chunk waits to be embedded. Semantic search finds it once a "
        "worker runs.", "No worker is running; %(counter)s chunks wait to be embedded. Semantic search finds them "
        "once a worker runs.", waiting)
    screenshot(status, f"workers-status-none-{language}")

    entry_page = status.context.new_page()
    entry_page.goto(f"/admin/cms/entry/{entry.pk}/change/")
    note = entry_page.locator("#entry-chunks-no-worker")
    assert note.inner_text() == said(lang, "No worker is running; %(counter)s chunk waits in this workspace.",
                                     "No worker is running; %(counter)s chunks wait in this workspace.", waiting)
    assert entry_page.locator("#entry-chunks-eta").count() == 0
    screenshot(entry_page, f"workers-entry-none-{language}")

    workers.start(provider="fake")
    wait_until(all_embedded(waiting), workers, "the worker to embed every chunk")
    # Neither page is reloaded: each refreshes its live part until nothing is pending.
    entry_page.wait_for_selector('#entry-chunks tr[data-state="embedded"]', timeout=REFRESHED_MS)
    entry_page.wait_for_selector("#entry-chunks-box[data-live-state=done]", timeout=REFRESHED_MS)
    assert set(entry_page.locator("#entry-chunks tr[data-state]").evaluate_all(
        "rows => rows.map(r => r.dataset.state)")) == {"embedded"}
    assert entry_page.locator("#entry-chunks-no-worker").count() == 0
    screenshot(entry_page, f"workers-entry-embedded-{language}")

    status.bring_to_front()
    status.wait_for_selector('[data-banner="up-to-date"]', timeout=REFRESHED_MS)
    assert status.locator('[data-banner="no-worker"]').count() == 0
    assert status.locator('#ingestion-counts [data-count="embedded"] .figure').inner_text() == str(waiting)
    screenshot(status, f"workers-status-embedded-{language}")
