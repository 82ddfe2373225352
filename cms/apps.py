"""App config for the content domain."""

from django.apps import AppConfig


class CmsConfig(AppConfig):
    name = "cms"
    verbose_name = "Content"

    def ready(self) -> None:
        from cms import static_files  # noqa: F401 - registers the deploy check cms.E001
