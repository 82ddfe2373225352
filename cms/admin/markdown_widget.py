"""The rich text fields' widget: a textarea that EasyMDE (vendored in cms/static/cms/vendor/easymde/)
turns into a Markdown editor with a preview; with JavaScript off it stays a plain textarea.

The text is stored as typed: Markdown, the one format of rich text fields (cms/richtext.py;
values once written in HTML were converted by migration cms.0016, so none opens as tags).
The toolbar's words are the widget's `data-markdown-words`, translated here.
"""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext


def markdown_words() -> dict[str, str]:
    return {
        "bold": gettext("Bold"), "italic": gettext("Italic"), "heading": gettext("Heading"),
        "quote": gettext("Quote"), "list": gettext("Bulleted list"), "numbered": gettext("1. Numbered list"),
        "link": gettext("Link"), "preview": gettext("Preview"), "side": gettext("Side by side"),
        "guide": gettext("Markdown guide"),
        # A button's visible text is part of its accessible name (its title): "B" of "Bold", "1." above.
        "bold_text": gettext("B"), "italic_text": gettext("I"), "heading_text": gettext("H"),
        "quote_text": "❝", "list_text": "•", "numbered_text": "1.", "link_text": gettext("Link"),
        "preview_text": gettext("Preview"), "side_text": gettext("Side by side"),
    }


class MarkdownTextarea(forms.Textarea):
    """A textarea marked `data-markdown`, with the editor's script and style as form media."""

    class Media:
        css = {"all": ["cms/vendor/easymde/easymde.min.css", "cms/markdown_editor.css"]}
        js = ["cms/vendor/easymde/easymde.min.js", "cms/markdown_editor.js"]

    def __init__(self, attrs=None):
        super().__init__(attrs={"class": "vLargeTextField", "rows": 10, **(attrs or {})})

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"]["data-markdown"] = json.dumps(markdown_words(), ensure_ascii=False)
        return context
