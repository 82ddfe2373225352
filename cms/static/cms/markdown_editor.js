// Rich text fields (cms/admin/markdown_widget.py): EasyMDE over each textarea[data-markdown], with
// text buttons (no icon font is downloaded) and a preview that shows raw HTML as text.
"use strict";

(function () {
  function escapeTags(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  }

  function start() {
    if (typeof EasyMDE === "undefined") return;
    document.querySelectorAll("textarea[data-markdown]").forEach((area) => {
      if (area.disabled || area.dataset.markdownStarted) return;
      area.dataset.markdownStarted = "1";
      const w = JSON.parse(area.dataset.markdown);
      const button = (name, action, key) => ({ name, action, text: w[`${key}_text`], title: w[key], className: `mde-${name}` });
      const editor = new EasyMDE({
        element: area,
        autoDownloadFontAwesome: false,
        spellChecker: false,
        nativeSpellcheck: true,
        status: false,
        forceSync: true,
        minHeight: "160px",
        toolbar: [
          button("bold", EasyMDE.toggleBold, "bold"),
          button("italic", EasyMDE.toggleItalic, "italic"),
          button("heading", EasyMDE.toggleHeadingSmaller, "heading"),
          "|",
          button("quote", EasyMDE.toggleBlockquote, "quote"),
          button("unordered-list", EasyMDE.toggleUnorderedList, "list"),
          button("ordered-list", EasyMDE.toggleOrderedList, "numbered"),
          button("link", EasyMDE.drawLink, "link"),
          "|",
          { ...button("preview", EasyMDE.togglePreview, "preview"), noDisable: true },
          { ...button("side-by-side", EasyMDE.toggleSideBySide, "side"), noDisable: true, noMobile: true },
        ],
        previewRender(text) {
          return editor.markdown(escapeTags(text));
        },
      });
      // The editor's own textarea is hidden; its visible input takes the field's label.
      const input = editor.codemirror.getInputField();
      const label = document.querySelector(`label[for="${area.id}"]`);
      if (label && input) {
        input.id = `${area.id}_editor`;
        label.htmlFor = input.id;
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
