"""The query's pins on the admin search page (issue 52, item 3): listed in their order, moved up and
down, unpinned; another workspace's pin, a viewer and an unknown action are refused."""

from __future__ import annotations

import pytest

from cms import services
from cms.models import Promotion, Role
from tests.factories import ContentTypeFactory, entry_make
from tests.search.interfaces.admin.test_admin_search_pin_and_chips import FIELDS, member

pytestmark = pytest.mark.django_db

CHANGE = "/admin/search/acme/pins"


@pytest.fixture
def pins(workspace, other_workspace):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS)
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="faq", name="FAQ", fields=FIELDS)
    made = [services.promotion_create(workspace=workspace, phrase="Refund", entry=entry_make(faq, title=title))
            for title in ("Refund policy", "Returns desk", "Gift cards")]
    services.promotion_move(promotion=made[0], by=0)  # positions 0, 1, 2
    made.append(services.promotion_create(workspace=other_workspace, phrase="refund",
                                          entry=entry_make(theirs, title="Globex refund")))
    return made


def order(workspace) -> list[str]:
    return [p.entry.title for p in Promotion.objects.for_workspace(workspace).filter(phrase_key="refund")
            .order_by("position", "id").select_related("entry__content_type")]


def test_the_page_lists_the_querys_pins_in_order(client, workspace, pins):
    client.force_login(member("editor", workspace))
    html = client.get("/admin/search/acme/", {"q": "REFUND", "mode": "fulltext"}).content.decode()
    listed = html[html.index('id="search-pin-list"'):]
    assert listed.index("Refund policy") < listed.index("Returns desk") < listed.index("Gift cards")
    assert "Globex" not in listed


def test_move_down_up_and_unpin(client, workspace, pins):
    client.force_login(member("editor", workspace))
    back = "q=refund&mode=fulltext"
    response = client.post(CHANGE, {"promotion": pins[0].pk, "action": "down", "back": back})
    assert response.status_code == 302 and response["Location"] == "/admin/search/acme/?q=refund&mode=fulltext"
    assert order(workspace) == ["Returns desk", "Refund policy", "Gift cards"]
    client.post(CHANGE, {"promotion": pins[2].pk, "action": "up", "back": back})
    assert order(workspace) == ["Returns desk", "Gift cards", "Refund policy"]
    client.post(CHANGE, {"promotion": pins[1].pk, "action": "up", "back": back})  # already first: stays
    assert order(workspace) == ["Returns desk", "Gift cards", "Refund policy"]
    client.post(CHANGE, {"promotion": pins[2].pk, "action": "unpin", "back": back})
    assert order(workspace) == ["Returns desk", "Refund policy"]


def test_another_workspaces_pin_is_a_400_and_stays(client, workspace, pins):
    client.force_login(member("editor", workspace))
    response = client.post(CHANGE, {"promotion": pins[3].pk, "action": "unpin"})
    assert response.status_code == 400 and response.json()["code"] == "promotion_not_in_workspace"
    assert Promotion.objects.filter(pk=pins[3].pk).exists()


def test_an_unknown_action_is_a_400(client, workspace, pins):
    client.force_login(member("editor", workspace))
    response = client.post(CHANGE, {"promotion": pins[0].pk, "action": "sideways"})
    assert response.status_code == 400 and response.json()["code"] == "action_invalid"


def test_a_viewer_may_not_unpin(client, workspace, pins):
    client.force_login(member("viewer", workspace, Role.VIEWER))
    assert client.post(CHANGE, {"promotion": pins[0].pk, "action": "unpin"}).status_code == 403
    assert "search-pin-list" not in client.get("/admin/search/acme/", {"q": "refund"}).content.decode()


def test_pin_an_entry_with_none_chosen_or_anothers_comes_back_as_a_message(client, workspace, pins):
    client.force_login(member("editor", workspace))
    for entry, code in ((None, "entry_required"), (pins[3].entry_id, "entry_not_in_workspace")):
        page = client.post("/admin/search/acme/pin", {"picker": "1", "q": "refund", "back": "q=refund",
                                                      **({"entry": entry} if entry else {})}, follow=True)
        assert page.status_code == 200 and f'data-code="{code}"' in page.content.decode()
    assert Promotion.objects.for_workspace(workspace).count() == 3
