"""`{{ value|content_lang }}`: the `lang` of a piece of content (cms/content_language.py)."""

from __future__ import annotations

from django import template
from django.utils.html import strip_tags

from cms.content_language import content_language

register = template.Library()


@register.filter
def content_lang(value: object, declared: str | None = None) -> str:
    """The language tag of `value`'s text (markup such as a snippet's <mark> ignored); `declared` (an
    entry's own language) wins when given."""
    return content_language(strip_tags(str(value)) if value is not None else "", declared)
