"""App config for the content domain."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CmsConfig(AppConfig):
    name = "cms"
    verbose_name = _("Content")

    def ready(self) -> None:
        from cms import shared_caches, static_files  # noqa: F401 - register the deploy checks cms.E001, cms.E002
        from cms.model_labels import model_labels_translate

        model_labels_translate()
