"""The admin's translation catalogues: every message of ours translated in ja and zh_Hant, none fuzzy,
the committed .mo files built from the .po files as they are (GNU gettext's msgfmt)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ["ja", "zh_Hant"]
# What `make messages` reads: every folder with our templates or modules (the Makefile ignores the rest).
SOURCES = ["cms", "search", "ingestion", "templates", "locale"]

pytestmark = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs GNU gettext (apt-get install gettext)")


def untranslated(po: Path) -> list[str]:
    """The msgids of `po` whose translation is empty or fuzzy (the header excepted)."""
    found = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        msgid = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', (re.search(r"^msgid ((?:\".*\"\n?)+)", block, re.M) or [None, ""])[1]))
        if not msgid:
            continue
        strings = re.findall(r"^msgstr(?:\[\d\])? ((?:\".*\"\n?)+)", block, re.M)
        empty = not strings or any(not "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', s)) for s in strings)
        if empty or re.search(r"^#,.*\bfuzzy\b", block, re.M):
            found.append(msgid)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_has_no_untranslated_or_fuzzy_message(language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert untranslated(po) == []
    stats = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, str(po)],
                           capture_output=True, text=True, check=True, env={**os.environ, "LC_ALL": "C"}).stderr
    assert re.fullmatch(r"\d+ translated messages\.\n", stats), stats


@pytest.mark.parametrize("language", LANGUAGES)
def test_committed_mo_is_the_po_compiled(language, tmp_path):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "django.mo"), str(po)], check=True)
    assert (tmp_path / "django.mo").read_bytes() == po.with_suffix(".mo").read_bytes(), "run make compilemessages"


def test_every_message_marked_in_the_code_has_a_translation(tmp_path, monkeypatch):
    # makemessages over a copy of the sources and of locale/: a string marked in a template or a
    # module but missing from the .po files arrives empty, and is listed here.
    for name in SOURCES:
        shutil.copytree(Path(settings.BASE_DIR) / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("makemessages", locale=LANGUAGES, no_obsolete=True, add_location="file", verbosity=0)
    missing = {language: untranslated(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po")
               for language in LANGUAGES}
    assert missing == {language: [] for language in LANGUAGES}, "translate them (make messages; docs/i18n.md)"
