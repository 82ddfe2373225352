"""Filters that show a stored choice value (`owner`, `published`) by its translated label."""

from __future__ import annotations

from django import template

from cms.model_labels import status_word
from cms.models import Role

register = template.Library()


def _label(choices: type, value: object) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return str(value)


@register.filter
def role_label(value: object) -> str:
    """`owner` -> "Owner" in the interface's language (unknown roles, e.g. an API key's, as they are)."""
    return _label(Role, value)


@register.filter
def status_label(value: object) -> str:
    """`published` -> "published" in the interface's language (cms/model_labels.py)."""
    return status_word(value)
