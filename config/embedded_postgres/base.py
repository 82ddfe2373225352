"""Django database backend: PostgreSQL on the embedded server, started on first connect."""

from django.db.backends.postgresql import base as postgresql

from config.embedded_postgres import SUPERUSER, ensure_database, ensure_server


class DatabaseWrapper(postgresql.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        socket_dir = ensure_server(
            self.settings_dict["PGDATA"], server_settings=self.settings_dict.get("SERVER_SETTINGS")
        )
        ensure_database(socket_dir, params["dbname"])
        params["host"] = socket_dir
        params["user"] = SUPERUSER
        return params
