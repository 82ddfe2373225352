"""App config for the content domain."""

from django.apps import AppConfig


class CmsConfig(AppConfig):
    name = "cms"
    verbose_name = "Content"
