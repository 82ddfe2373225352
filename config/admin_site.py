"""The project's admin site: Django's, with autocomplete results labelled as the asking form labels them.

Installed as the default site (`admin.site`) by `AdminSiteConfig`, in INSTALLED_APPS in place of
"django.contrib.admin", the way Django documents overriding the default admin site.

A process that serves no admin page sets DJANGO_ADMIN_AUTODISCOVER=false (manage.py does for
`mcp_serve`): Django then starts without importing the apps' admin modules, as with Django's
SimpleAdminConfig. Each stdio MCP session starts its own `mcp_serve`, and the admin modules were
about a quarter of Django's start (docs/design/suite.md).
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig, SimpleAdminConfig
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.http import HttpRequest, HttpResponse


class LabelledAutocompleteJsonView(AutocompleteJsonView):
    """Django's autocomplete, each result's text taken from the model admin of the form that asks
    (its `autocomplete_label(field_name, obj)`, when it has one), so that the search box shows a
    choice as the form's select would. Which rows answer is unchanged: the searched model admin's
    `get_queryset` and `get_search_results` (roles, workspaces) decide."""

    def serialize_result(self, obj: Any, to_field_name: str) -> dict[str, str]:
        result = super().serialize_result(obj, to_field_name)
        label = getattr(self.admin_site.get_model_admin(self.source_field.model), "autocomplete_label", None)
        if label is not None:
            result["text"] = label(self.source_field.name, obj)
        return result


class AdminSite(admin.AdminSite):
    """Django's admin site with LabelledAutocompleteJsonView as its autocomplete view."""

    def autocomplete_view(self, request: HttpRequest) -> HttpResponse:
        return LabelledAutocompleteJsonView.as_view(admin_site=self)(request)


ADMIN_AUTODISCOVER_ENV = "DJANGO_ADMIN_AUTODISCOVER"


class AdminSiteConfig(AdminConfig):
    default_site = "config.admin_site.AdminSite"

    def ready(self) -> None:
        if os.environ.get(ADMIN_AUTODISCOVER_ENV, "true").lower() == "false":
            SimpleAdminConfig.ready(self)  # the admin's checks, no admin module imported
        else:
            super().ready()
