"""Production serves the static files collectstatic wrote, or does not start at all.

With DEBUG off, the admin's pages name their CSS and JS through the manifest that
`collectstatic` writes into STATIC_ROOT (WhiteNoise's CompressedManifestStaticFilesStorage).
A file missing from it makes every page that names it a 500 (ValueError). Rather than serve
that, or quietly serve unhashed, uncached copies, the web entry points (config/wsgi.py,
config/asgi.py) refuse to start and say which command to run, and `manage.py check --deploy`
reports the same as error cms.E001. Other commands (migrate, collectstatic itself, Celery)
are not affected.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import storages

# collectstatic's default ignore patterns: files it never collects.
IGNORE_PATTERNS = ["CVS", ".*", "*~"]


def static_files_uncollected_message() -> str | None:
    """Why the app may not serve pages with the static files storage as it is, or None.

    None when the storage keeps no manifest (development), or when the manifest in STATIC_ROOT
    names every static file the installed apps ship.
    """
    storage = storages["staticfiles"]
    if not isinstance(storage, ManifestFilesMixin):
        return None
    run = (f"Run `python manage.py collectstatic --noinput` with these settings (STATIC_ROOT={settings.STATIC_ROOT}) "
           "before starting the app; docker/Dockerfile does so when it builds the image.")
    manifest_path = os.path.join(str(settings.STATIC_ROOT), storage.manifest_name)
    if not os.path.exists(manifest_path):
        return (f"The static files are not collected: {manifest_path} does not exist, so every admin page "
                f"would fail. {run}")
    collected, _ = storage.load_manifest()
    missing = sorted(
        path.replace(os.sep, "/")
        for finder in finders.get_finders()
        for path, _ in finder.list(IGNORE_PATTERNS)
        if path.replace(os.sep, "/") not in collected
    )
    if missing:
        return (f"{len(missing)} static files are missing from {manifest_path} (such as {', '.join(missing[:3])}): "
                f"collectstatic last ran for other code, and the pages naming them would fail. {run}")
    return None


def static_files_collected_or_refuse() -> None:
    """Raise ImproperlyConfigured (the web server then does not start) unless static files are ready."""
    message = static_files_uncollected_message()
    if message:
        raise ImproperlyConfigured(message)


@checks.register(checks.Tags.staticfiles, deploy=True)
def static_files_collected_check(app_configs, **kwargs) -> list[checks.CheckMessage]:
    message = static_files_uncollected_message()
    return [checks.Error(message, id="cms.E001")] if message else []
