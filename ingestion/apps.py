"""App config for ingestion; connects its receivers to the content signals."""

from django.apps import AppConfig


class IngestionConfig(AppConfig):
    name = "ingestion"

    def ready(self) -> None:
        from ingestion import receivers  # noqa: F401 - connects the signal receivers
