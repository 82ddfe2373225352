"""In a real browser: the ingestion status page, its actions and roles, and a refused cross-workspace add."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from cms.models import Entry, Role
from ingestion.models import Chunk, ChunkStatus, EmbeddingUsage
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser


@pytest.fixture
def support(transactional_db):
    """A Japanese workspace: 3 chunks pending for 12 minutes, 2 failed with the provider's message."""
    workspace = WorkspaceFactory(slug="support", name="サポートセンター")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="よくある質問", semantic_search_enabled=True)
    ContentTypeFactory(workspace=workspace, api_id="news", name="お知らせ")
    for title in ("返品・返金について", "配送料金のご案内", "Password reset"):
        entry_make(faq, title=title, body=f"<p>{title}の詳細。</p>")
    failing = [entry_make(faq, title=f"Broken {i}", body="<p>Rejected.</p>") for i in range(2)]
    Chunk.objects.filter(entry__in=failing).update(
        status=ChunkStatus.FAILED, attempts=5, last_error="Voyage rejected the API key (401): invalid key"
    )
    Chunk.objects.pending().update(updated_at=timezone.now() - datetime.timedelta(minutes=12))
    today = timezone.now().date()
    for days_ago, requests, tokens in ((0, 3, 4_210), (1, 12, 18_400), (4, 1, 350)):
        EmbeddingUsage.objects.create(
            workspace=workspace, model="voyage-3.5", day=today - datetime.timedelta(days=days_ago),
            requests=requests, texts=requests * 20, tokens=tokens, cost_usd=Decimal(tokens) * Decimal("0.00000006"),
        )
    return workspace


@pytest.fixture
def globex(transactional_db):
    workspace = WorkspaceFactory(slug="globex", name="Globex")
    entry_make(ContentTypeFactory(workspace=workspace, api_id="plan", name="Secret plan", semantic_search_enabled=True),
               title="Globex takeover")
    return workspace


def member(username: str, workspace, role: str):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def count(page, name: str) -> str:
    return page.locator(f'#ingestion-counts [data-count="{name}"] .figure').inner_text()


def test_editor_sees_counts_and_pending_age_then_retries_failed_chunks(
    login_page, screenshot, support, globex, fake_backend
):
    page = login_page(member("editor", support, Role.EDITOR))
    page.click("text=Ingestion status")
    page.click("text=サポートセンター")
    assert page.locator("h1").inner_text() == "Ingestion status: サポートセンター"
    assert (count(page, "pending"), count(page, "embedded"), count(page, "failed")) == ("3", "0", "2")
    assert "the oldest has waited 12\xa0minutes" in page.locator('[data-banner="pending"]').inner_text()
    assert "invalid key" in page.locator("#ingestion-last-error").inner_text()
    assert page.locator("#ingestion-usage tfoot").inner_text().split("\t")[1:] == ["16", "320", "22,960", "$0.001378"]
    assert page.locator('tr[data-content-type="faq"] th').inner_text() == "よくある質問 (faq)"
    screenshot(page, "ingestion-status-editor")

    page.select_option("#ingestion-action", "retry_all_failed")
    page.click("#ingestion-run")
    assert "2 failed chunk(s) requeued; embedding is queued." in page.locator(".messagelist .success").inner_text()
    assert (count(page, "pending"), count(page, "failed")) == ("5", "0")
    assert Chunk.objects.filter(workspace=support).failed().count() == 0
    screenshot(page, "ingestion-status-after-retry")


def test_viewer_is_refused_the_status_and_its_actions(login_page, screenshot, support):
    # The counts and usage include drafts: the page is for editors and owners (docs/access.md).
    page = login_page(member("viewer", support, Role.VIEWER))
    assert page.goto("/admin/ingestion/status/support/").status == 403
    assert page.locator("#ingestion-counts").count() == 0
    screenshot(page, "ingestion-status-viewer")
    page.goto("/admin/search/support/")
    # A forged POST with the viewer's own session and CSRF token is refused too.
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(
        "/admin/ingestion/status/support/",
        form={"csrfmiddlewaretoken": token, "action": "retry_all_failed"},
        headers={"Referer": page.url},
    )
    assert response.status == 403
    assert Chunk.objects.filter(workspace=support).failed().count() == 2


def test_another_workspaces_status_never_appears(login_page, screenshot, support, globex):
    page = login_page(member("editor", support, Role.EDITOR))
    page.goto("/admin/ingestion/status/")
    rows = page.locator("#ingestion-workspaces tbody tr")
    assert rows.count() == 1 and rows.first.get_attribute("data-workspace") == "support"
    assert "Globex" not in page.content()
    screenshot(page, "ingestion-status-index")
    response = page.goto("/admin/ingestion/status/globex/")
    assert response.status == 404
    assert "Secret plan" not in page.content() and "Globex takeover" not in page.content()


def test_cross_workspace_entry_add_is_refused(login_page, screenshot, support, globex):
    user = member("split", support, Role.EDITOR)
    MembershipFactory(user=user, workspace=globex, role=Role.VIEWER)
    theirs = globex.content_types.get()
    page = login_page(user)
    page.goto("/admin/cms/entry/add/")  # first, the content type (cms/admin/entries/admin.py)
    assert page.locator("#id_content_type optgroup").evaluate_all("gs => gs.map(g => g.label)") == ["サポートセンター"]
    options = page.locator("#id_content_type option").all_inner_texts()
    assert "Secret plan (plan)" not in options
    assert "よくある質問 (faq)" in options
    # Forge the choice the page does not offer, as a hand-made request would.
    page.evaluate(
        "pk => { const o = new Option('forged', pk); document.querySelector('#id_content_type').add(o); }", str(theirs.pk)
    )
    page.select_option("#id_content_type", str(theirs.pk))
    with page.expect_navigation():
        page.click("#entry-content-type-continue")
    assert "Select a valid choice" in page.locator(".errorlist").first.inner_text()
    assert page.locator("#id_data__title").count() == 0  # no form of their type
    screenshot(page, "entry-add-cross-workspace-refused")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post("/admin/cms/entry/add/", form={
        "csrfmiddlewaretoken": token, "content_type": str(theirs.pk), "status": "draft", "data__title": "Planted",
    }, headers={"Referer": page.url})
    assert response.status == 200 and "Select a valid choice" in response.text()
    assert not Entry.objects.filter(workspace=globex, data__title="Planted").exists()
