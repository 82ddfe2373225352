"""Which embedding provider a deployment gets when it names none: multilingual-e5-small without a
Voyage key (issue 37), Voyage with one; `local` (USE) when asked for. And the suite's own.

Each deployment case loads the settings in a fresh process with only the environment it names,
as an operator would start it (this test run sets EMBEDDING_PROVIDER itself: tests/environment.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

REPO = Path(__file__).resolve().parents[2]
PRINT_PROVIDER = ("from django.conf import settings\n"
                  "print(settings.EMBEDDING_PROVIDER)\n"
                  "print(settings.SEARCH_EMBEDDING_BACKENDS['default']['BACKEND'])")


def provider_and_backend(**env: str) -> list[str]:
    """EMBEDDING_PROVIDER and the default backend's class, as a process with `env` loads them."""
    clean = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "LC_ALL": "C.UTF-8",
             "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true"}
    result = subprocess.run([sys.executable, "-c", PRINT_PROVIDER], cwd=REPO, env={**clean, **env},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_without_a_voyage_key_the_default_is_multilingual_e5_small():
    assert provider_and_backend() == ["e5-small", "ingestion.embeddings.e5.E5EmbeddingBackend"]


def test_with_a_voyage_key_the_default_is_voyage():
    assert provider_and_backend(VOYAGE_API_KEY="key") == ["voyage", "ingestion.embeddings.voyage.VoyageEmbeddingBackend"]


def test_local_keeps_use_when_named():
    assert provider_and_backend(EMBEDDING_PROVIDER="local") == ["local", "ingestion.embeddings.local.LocalEmbeddingBackend"]


def test_the_suite_runs_on_local_unless_a_test_asks_otherwise():
    assert os.environ["EMBEDDING_PROVIDER"] == "local"
    assert settings.SEARCH_EMBEDDING_BACKENDS["default"]["BACKEND"] == "ingestion.embeddings.local.LocalEmbeddingBackend"
