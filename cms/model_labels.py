"""The content models' and fields' names in the interface's language, put on their `_meta` at startup.

The models' Meta and fields keep their English names as written: a translated `verbose_name`
there changes every model's and field's migration state (a migration per model that does
nothing in the database), while the admin reads the names only from `_meta` and the fields at
request time. `model_labels_translate` (called by CmsConfig.ready) swaps in lazy translations
of the same English words, so migrations see no change and `makemessages` finds the words here.
"""

from __future__ import annotations

from django.apps import apps
from django.utils.translation import gettext_lazy as _, pgettext_lazy

# model name -> (verbose_name, verbose_name_plural), the English of each as the model has it.
MODEL_NAMES = {
    "workspace": (_("workspace"), _("workspaces")),
    "membership": (_("membership"), _("memberships")),
    "contenttype": (_("content type"), _("content types")),
    "asset": (_("asset"), _("assets")),
    "entry": (_("entry"), _("entries")),
    "apikey": (_("API key"), _("API keys")),
    "promotion": (_("promotion"), _("promotions")),
}
# field name -> its name, for every field of the models above whose name the admin shows.
FIELD_NAMES = {
    "slug": _("slug"), "name": _("name"), "created_at": _("created at"), "updated_at": _("updated at"),
    "search_fusion": _("search fusion"), "search_log_enabled": _("search log enabled"),
    "typo_one_edit_length": _("typo one edit length"), "typo_two_edits_length": _("typo two edits length"),
    "synonyms_version": _("synonyms version"), "user": _("user"), "workspace": _("workspace"), "role": _("role"),
    "api_id": _("api id"), "fields": _("fields"), "semantic_search_enabled": _("semantic search enabled"),
    "file": _("file"), "filename": _("filename"), "mime_type": _("mime type"), "size": _("size"),
    "text": _("text"), "uploaded_by": _("uploaded by"), "content_type": _("content type"), "data": _("data"),
    "status": _("status"), "created_by": _("created by"), "prefix": _("prefix"),
    "include_drafts": _("include drafts"), "expires_at": _("expires at"), "revoked_at": _("revoked at"),
    "last_used_at": _("last used at"), "phrase": _("phrase"), "match": pgettext_lazy("how a promotion matches", "match"), "entry": _("entry"), "position": _("position"),
}
# An entry's status as a word in running text and lists (the stored value, translated).
STATUS_WORDS = {"draft": _("draft"), "published": _("published")}


def status_word(value: object) -> str:
    """`published` -> "published" in the interface's language; an unknown value as it is."""
    return str(STATUS_WORDS.get(str(value), value))


def model_labels_translate() -> None:
    """Give the cms models and their fields lazily translated names (same English, no migration)."""
    for model in apps.get_app_config("cms").get_models():
        names = MODEL_NAMES.get(model._meta.model_name)
        if names is not None and str(names[0]) == model._meta.verbose_name:
            model._meta.verbose_name, model._meta.verbose_name_plural = names
        for field in model._meta.fields:
            name = FIELD_NAMES.get(field.name)
            if name is not None and str(name) == str(field.verbose_name):
                field.verbose_name = name
