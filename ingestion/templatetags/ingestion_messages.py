"""`{{ message|provider_message }}`: the embedding provider's known messages in the admin's language.

The API and MCP keep the English message (with its code); the admin shows the same advice translated.
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from ingestion.embeddings import NOT_CONFIGURED_HELP

register = template.Library()

TRANSLATED = {
    NOT_CONFIGURED_HELP: _("Semantic search has no embedding provider. Set EMBEDDING_PROVIDER=local for the offline "
                           "multilingual model, or VOYAGE_API_KEY (and EMBEDDING_PROVIDER=voyage) for Voyage."),
}


@register.filter
def provider_message(message: object) -> str:
    """`message` translated when it is one of the provider's known messages, else as it is."""
    text = str(message or "")
    return str(TRANSLATED[text]) if text in TRANSLATED else text
