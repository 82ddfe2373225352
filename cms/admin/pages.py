"""The admin's own pages (search, synonyms, insights, ingestion status): one way to render them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse


def admin_page(request: HttpRequest, template: str, title: str, **context: Any) -> TemplateResponse:
    """`template` inside the admin's frame (its sidebar, user tools and language chooser), titled `title`."""
    return TemplateResponse(request, template, {**admin.site.each_context(request), "title": title, **context})
