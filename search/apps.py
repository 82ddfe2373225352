"""App config for search; connects read-your-writes to the content signals."""

from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"

    def ready(self) -> None:
        from search.read_your_writes import receivers_connect

        receivers_connect()
