"""The admin site's registrations: which admin class serves each model, and the URLs they answer.

Pinned so that moving the admin modules (each registers its own admins) changes no page: the
apps that extend cms's admins (ingestion's content types, search's entries) still win, and
every model keeps its add, change, delete and history URLs. Pure Python, no database.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver

REGISTERED = {
    "auth.Group": "django.contrib.auth.admin.GroupAdmin",
    "auth.User": "django.contrib.auth.admin.UserAdmin",
    "axes.AccessAttempt": "axes.admin.AccessAttemptAdmin",
    "axes.AccessFailureLog": "axes.admin.AccessFailureLogAdmin",
    "axes.AccessLog": "axes.admin.AccessLogAdmin",
    "cms.ApiKey": "cms.admin.api_keys.ApiKeyAdmin",
    "cms.Asset": "cms.admin.content.AssetAdmin",
    "cms.ContentType": "ingestion.admin.content_types.ContentTypeIngestionAdmin",
    "cms.Entry": "search.interfaces.admin.entries.EntrySearchAdmin",
    "cms.Membership": "cms.admin.content.MembershipAdmin",
    "cms.Promotion": "cms.admin.promotions.PromotionAdmin",
    "cms.Workspace": "cms.admin.content.WorkspaceAdmin",
}
MODEL_ROUTES = {
    "": "changelist",
    "add/": "add",
    "<path:object_id>/change/": "change",
    "<path:object_id>/delete/": "delete",
    "<path:object_id>/history/": "history",
}


def _routes(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + str(pattern.pattern), pattern.name


def test_each_model_is_served_by_its_admin_class():
    registered = {model._meta.label: f"{type(model_admin).__module__}.{type(model_admin).__qualname__}"
                  for model, model_admin in admin.site._registry.items()}
    assert registered == REGISTERED


def test_each_cms_model_answers_its_admin_urls():
    routes = set(_routes(admin.site.get_urls()))
    for label in (label for label in REGISTERED if label.startswith("cms.")):
        model = label.split(".")[1].lower()
        for route, view in MODEL_ROUTES.items():
            assert (f"cms/{model}/{route}", f"cms_{model}_{view}") in routes
