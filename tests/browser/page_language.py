"""Every page a browser test opens in Japanese or Traditional Chinese is checked for English
sentences and ASCII sentence ends in its visible text (issue 52).

`page_language_check_attach(context)` gives a browser context an init script that, at each
page's `load`, reads the page's visible text and reports what it finds through a binding;
conftest.py attaches it to every context the tests make (the `browser` fixture's new_context),
and fails the test at its end if anything was reported. Only pages whose `<html lang>` is `ja`
or `zh-hant` are read, and only text outside content marked with another language (titles,
snippets, field values carry their own `lang`, cms/content_language.py), outside code, inputs
and hidden elements.

What counts:
- an English sentence: three Latin words or more in a row ("Semantic search is off");
- an ASCII sentence end: `.` `;` `!` `?` right after Japanese or Chinese ("検索しました."), or a
  `.` ending a line of CJK text after a Latin name ("使用中的模型： fake-hash-16.").
"""

from __future__ import annotations

from dataclasses import dataclass, field

CHECKED_LANGUAGES = ("ja", "zh-hant")

# Names that stay Latin in every language and may run to three words.
ALLOWED_PHRASES = ()

PAGE_TEXT_JS = r"""
(() => {
  const CHECKED = %(languages)s;
  const ALLOWED = %(allowed)s;
  const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}ー々〆";
  const ENGLISH = /[A-Za-z][A-Za-z'’]*(?:[ ,]+[A-Za-z][A-Za-z'’]*){2,}/g;
  const CJK_THEN_ASCII_END = new RegExp(`[${CJK}）」』][.;!?](?=\\s|$)`, "u");
  const HAS_CJK = new RegExp(`[${CJK}]`, "u");
  const LATIN_THEN_DOT = /[A-Za-z0-9)\]□] ?[.](?=\s|$)/;
  const BLOCKS = "p, li, td, th, dd, dt, label, h1, h2, h3, h4, h5, h6, caption, legend, summary, button, "
    + ".help, .description, .messagelist li, div";

  function check() {
    const pageLang = document.documentElement.lang;
    if (!CHECKED.includes(pageLang)) return [];
    const blocks = new Map();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, textarea, code, kbd, pre, samp, [hidden], .visually-hidden, "
                                    + "select, [data-text-check=skip]")) continue;
      if (!parent.checkVisibility()) continue;
      const marked = parent.closest("[lang]");
      const other = marked && marked.getAttribute("lang") !== pageLang;
      const block = parent.closest(BLOCKS) || document.body;
      if (!blocks.has(block)) blocks.set(block, []);
      // Content in another language stands as one opaque word, so the sentence around it still reads.
      blocks.get(block).push(other ? " □ " : node.textContent);
    }
    const found = [];
    for (const [block, parts] of blocks) {
      let text = parts.join("").replace(/\s+/g, " ").trim();
      for (const phrase of ALLOWED) text = text.split(phrase).join("□");
      if (!text) continue;
      for (const match of text.match(ENGLISH) || []) found.push(`English: "${match}" in "${text.slice(0, 160)}"`);
      if (CJK_THEN_ASCII_END.test(text)) found.push(`ASCII sentence end: "${text.slice(0, 160)}"`);
      else if (HAS_CJK.test(text) && LATIN_THEN_DOT.test(text)) found.push(`ASCII sentence end: "${text.slice(0, 160)}"`);
    }
    return found;
  }

  window.addEventListener("load", () => {
    const found = check();
    if (found.length && window.__pageLanguageReport) window.__pageLanguageReport(location.pathname + location.search, found);
  });
  window.__pageLanguageCheck = check;
})();
"""


@dataclass
class PageLanguageFindings:
    """What the pages reported: (path, finding) pairs, in the order they were found."""

    found: list[tuple[str, str]] = field(default_factory=list)

    def report(self, path: str, findings: list[str]) -> None:
        for finding in findings:
            if (path, finding) not in self.found:
                self.found.append((path, finding))

    def take(self) -> list[tuple[str, str]]:
        found, self.found = self.found, []
        return found


def page_language_script() -> str:
    import json

    return PAGE_TEXT_JS % {"languages": json.dumps(CHECKED_LANGUAGES), "allowed": json.dumps(ALLOWED_PHRASES)}


def page_language_check_attach(context, findings: PageLanguageFindings) -> None:
    """Check every page `context` loads from now on; what is found goes to `findings`."""
    context.expose_binding("__pageLanguageReport", lambda source, path, found: findings.report(path, found))
    context.add_init_script(page_language_script())


def page_language_check_now(page, findings: PageLanguageFindings) -> None:
    """Check the page as it is now (after a live part was swapped in, or before its context closes)."""
    try:
        found = page.evaluate("() => window.__pageLanguageCheck ? window.__pageLanguageCheck() : []")
    except Exception:  # noqa: BLE001 - a page mid-navigation or closed: its load event reported it
        return
    if found:
        findings.report(_path(page.url), found)


def _path(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
