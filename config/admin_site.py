"""The project's admin site: Django's, with autocomplete results labelled as the asking form labels them.

Installed as the default site (`admin.site`) by `AdminSiteConfig`, in INSTALLED_APPS in place of
"django.contrib.admin", the way Django documents overriding the default admin site.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
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


class AdminSiteConfig(AdminConfig):
    default_site = "config.admin_site.AdminSite"
