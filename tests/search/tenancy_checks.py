"""The tenancy property's runner and its HTTP API checks, shared by the single-node property
tests (tests/search/interfaces/test_tenancy_property.py) and the same property on a Citus
cluster (tests/citus/test_tenancy_property.py).

`run_property` draws worlds and probes (tests/search/tenancy.py), each world in a transaction
rolled back after it, and runs a check per probe; the API checks send each probe as a client
would (full-text, suggest, and each ranked search) and hold the answer to the oracle.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import NoReverseMatch, reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from cms.models import Entry, EntryStatus
from tests.figures import figure_record
from tests.search.tenancy import (
    Expected,
    Probe,
    Tally,
    World,
    entry_violations,
    expected_for_key,
    expected_for_user,
    home_slugs,
    probes,
    source_violations,
    world_build,
    world_specs,
)

ENTRIES = "/api/v1/workspaces/{slug}/search/entries"
# Agentic search's second part: words every world's content has, so both parts find chunks.
AGENTIC_SECOND_PART = "refund shipping policy"
PROBES_PER_WORLD = st.integers(1, 4)
# Worlds per test: 4x the profile's examples (ci: 100 worlds, up to 400 probes, per interface).
EXAMPLES = settings.default.max_examples * 4


@pytest.fixture(autouse=True)
def no_rate_limits(settings, fake_embeddings):
    """Autouse where imported (with tests.search.pipeline_helpers' fake_embeddings beside it: the
    worlds' chunks are embedded by the fake provider). The properties send hundreds of refused credentials from one
    address on purpose: the failed-authentication throttle (tests/security/test_auth_throttle.py)
    would answer 429."""
    settings.API_RATE_LIMIT_KEY = ""
    settings.API_RATE_LIMIT_USER = ""
    settings.API_RATE_LIMIT_AUTH_FAILURES = ""


@contextmanager
def rolled_back():
    """One example's world lives in a transaction that is rolled back after it."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def run_property(interface: str, check: Callable[[World, Probe, Any, Tally], None], callers: Callable,
                 *, examples: int = EXAMPLES, derandomize: bool | None = None) -> Tally:
    """Run `check` on generated worlds and probes; record the figures; require some results.
    `examples` worlds; `derandomize=True` draws the same worlds every run, whatever the profile."""
    tally = Tally()
    chosen = {"max_examples": examples, **({} if derandomize is None else {"derandomize": derandomize})}

    @settings(**chosen)
    @given(spec=world_specs, data=st.data())
    def property_holds(spec: dict, data: st.DataObject) -> None:
        with rolled_back():
            world = world_build(spec)
            for _ in range(data.draw(PROBES_PER_WORLD, label="probes")):
                caller = data.draw(callers(world), label="caller")
                probe = data.draw(probes(world, home_slugs(world, caller)), label="probe")
                check(world, probe, caller, tally)

    property_holds()
    figure_record(f"tenancy property, {tally.summary(interface)}")
    assert tally.outcomes[(interface, "200 with results")] > 0, tally.summary(interface)
    return tally


# --- callers ------------------------------------------------------------------------------------

def api_callers(world: World) -> st.SearchStrategy:
    return st.sampled_from([("user", user) for user in world.users] * 2 + [("key", key) for key in world.keys] * 2
                           + [("anonymous", None)])


def api_client(world: World, caller: tuple[str, Any], slug: str) -> tuple[Client, Expected]:
    kind, actor = caller
    client = Client()
    if kind == "user":
        client.force_login(actor.user)
        return client, expected_for_user(world, actor, slug)
    if kind == "key":
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {actor.secret}"
        return client, expected_for_key(world, actor, slug)
    return client, Expected(refusal=(401, "not_authenticated"))


def answer_check(interface: str, expected: Expected, probe: Probe, status: int, body: Any,
                 results: Callable[[dict], list[str]], tally: Tally) -> None:
    """The refusal the policy prescribes, or an input error with a code, or results within policy."""
    assert isinstance(body, dict) and isinstance(body.get("code", ""), str), body
    if expected.refusal is not None:
        assert (status, body.get("code")) == expected.refusal, (status, body, expected)
        tally.record(interface, f"{status} {body['code']}")
        return
    if status == 200:
        problems = results(body)
        assert not problems, (problems, probe)
        tally.record(interface, "200 with results" if body.get("_count") else "200 empty")
        return
    assert status in (400, 403), (status, body)
    assert body["code"], body
    if status == 403:  # only a status the caller may not see is forbidden
        assert body["code"] == "status_not_visible" and not expected.include_drafts, body
    tally.record(interface, f"{status} {body['code']}")


# --- what an answer may hold ----------------------------------------------------------------------

def facet_violations(expected: Expected, body: dict) -> list[str]:
    """Facet counts (asked for by every API probe) never count a draft the caller may not see,
    nor more entries of a content type than the caller's workspace holds visible."""
    facets = body.get("facets")
    if facets is None:
        return ["no facets in the answer"]
    found = []
    if not expected.include_drafts and facets["status"].get(EntryStatus.DRAFT):
        found.append(f"draft counted: {facets['status']}")
    visible = Entry.objects.filter(workspace=expected.workspace)
    if not expected.include_drafts:
        visible = visible.filter(status=EntryStatus.PUBLISHED)
    for api_id, count in facets["content_type"].items():
        if count > visible.filter(content_type__api_id=api_id).count():
            found.append(f"{count} {api_id} counted, more than the workspace holds visible")
    return found


def entry_results(expected: Expected, *, facets_asked: bool = False) -> Callable[[dict], list[str]]:
    def problems(body: dict) -> list[str]:
        body["_count"] = len(body["results"])
        found = entry_violations(expected, [hit["id"] for hit in body["results"]])
        found += [f"hit {h['id']} says {h['status']}" for h in body["results"]
                  if h["status"] != EntryStatus.PUBLISHED and not expected.include_drafts]
        return found + (facet_violations(expected, body) if facets_asked else [])
    return problems


def source_results(expected: Expected, *, facets_asked: bool = False) -> Callable[[dict], list[str]]:
    def problems(body: dict) -> list[str]:
        body["_count"] = len(body["sources"])
        return source_violations(expected, body["sources"]) + (
            facet_violations(expected, body) if facets_asked else [])
    return problems


def suggest_results(world: World, expected: Expected) -> Callable[[dict], list[str]]:
    """A title suggestion must be the title of an entry the caller may see (in its workspace,
    published unless it sees drafts); a term must not only be in drafts or elsewhere."""
    def problems(body: dict) -> list[str]:
        body["_count"] = len(body["suggestions"])
        visible = {e.title for e in world.entries if e.workspace_id == expected.workspace.pk
                   and (expected.include_drafts or e.status == EntryStatus.PUBLISHED)}
        return [f"title {s['text']!r} is no visible entry's" for s in body["suggestions"]
                if s["kind"] == "title" and s["text"] not in visible]
    return problems


# --- the HTTP API's checks ------------------------------------------------------------------------

def api_full_text_check(world: World, probe: Probe, caller, tally: Tally) -> None:
    client, expected = api_client(world, caller, probe.slug)
    params = {"q": probe.query, **({"content_type": probe.content_type} if probe.content_type else {}),
              **({"status": probe.status} if probe.status else {}), "facets": "content_type,status"}
    response = client.get(ENTRIES.format(slug=probe.slug), params)
    answer_check("API full-text", expected, probe, response.status_code, response.json(),
                 entry_results(expected, facets_asked=True), tally)


def api_suggest_check(world: World, probe: Probe, caller, tally: Tally) -> None:
    client, expected = api_client(world, caller, probe.slug)
    # What someone typing the probe's query has typed after a few characters.
    response = client.get(f"/api/v1/workspaces/{probe.slug}/search/suggest", {"q": probe.query[:4], "limit": 20})
    answer_check("API suggest", expected, probe, response.status_code, response.json(),
                 suggest_results(world, expected), tally)


def ranked_searches() -> list[str]:
    """The chunk searches the API serves: semantic, and hybrid and agentic where this checkout has them."""
    found = []
    for name in ("semantic", "hybrid", "agentic"):
        try:
            reverse(f"search-{name}", kwargs={"slug": "x"})
            found.append(name)
        except NoReverseMatch:
            pass
    return found


def api_ranked_check(search: str) -> Callable[[World, Probe, Any, Tally], None]:
    """The check of one ranked search (`semantic`, `hybrid`, `agentic`), as interface `API <search>`."""
    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        client, expected = api_client(world, caller, probe.slug)
        body = {"query": probe.query, "top_k": 100, "content_type": probe.content_type, "filter": probe.filter,
                "facets": ["content_type", "status"]}
        if search == "agentic":
            body["queries"] = [probe.query, AGENTIC_SECOND_PART]
        response = client.post(f"/api/v1/workspaces/{probe.slug}/search/{search}", json.dumps(body),
                               content_type="application/json")
        answer_check(f"API {search}", expected, probe, response.status_code, response.json(),
                     source_results(expected, facets_asked=True), tally)
    return check


def api_checks() -> dict[str, Callable[[World, Probe, Any, Tally], None]]:
    """Every API search's check, by the interface name it records."""
    return {"API full-text": api_full_text_check, "API suggest": api_suggest_check,
            **{f"API {search}": api_ranked_check(search) for search in ranked_searches()}}
