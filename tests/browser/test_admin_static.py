"""The admin's stylesheet applies in a real browser when gunicorn serves the app with DEBUG off
(WhiteNoise serves the collected, hashed static files; see tests/config/test_static_files.py)."""

from __future__ import annotations

import pytest

from tests.cms.production_server import BEHIND_PROXY, production_server  # noqa: F401 - fixture

pytestmark = pytest.mark.browser

# The admin's header background: --header-bg, which is --secondary (#417690), in admin/css/base.css.
ADMIN_HEADER_BACKGROUND = "rgb(65, 118, 144)"


def test_admin_login_page_is_styled_in_a_browser(browser, production_server):  # noqa: F811 - fixture
    page = browser.new_page(color_scheme="light", extra_http_headers=BEHIND_PROXY)
    stylesheets: list[int] = []
    page.on("response", lambda r: stylesheets.append(r.status) if r.request.resource_type == "stylesheet" else None)
    try:
        page.goto(production_server.base_url + "/admin/login/", wait_until="load")
        background = page.eval_on_selector("#header", "el => getComputedStyle(el).backgroundColor")
    finally:
        page.close()

    assert stylesheets and set(stylesheets) == {200}
    assert background == ADMIN_HEADER_BACKGROUND
