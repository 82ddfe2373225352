"""Tenancy as a property: hypothesis strategies for worlds of tenants and for probes of them,
and the oracle that says what a caller may see.

A world is a few workspaces with content types (whose api_ids repeat across workspaces),
entries in both statuses (saved by cms.services, chunked by ingestion's sync, embedded by the
fake provider), users with a role per workspace (or none, or superuser, or deactivated) and
API keys (with or without drafts; live, expired or revoked). A probe is one caller asking one
workspace one thing, with queries and filters that try to reach elsewhere: other slugs, ids
and content types, `workspace_id`, `$where`, JSON paths, SQL fragments.

`expected_access` says what the caller may see; `violations` lists every result that is
outside it. The tests (tests/search/interfaces/test_tenancy_property.py) run probes through each
interface and require no violation, the refusals the policy prescribes, and, so that the
property is never vacuous, some results.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone
from hypothesis import strategies as st

from cms import services
from cms.models import ApiKey, ContentType, Entry, EntryStatus, Promotion, PromotionMatch, Role, Workspace
from ingestion.models import Chunk
from ingestion.services import chunks_embed_pending

SLUGS = ["acme", "globex", "initech"]
API_IDS = ["article", "product", "memo"]
FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
    {"id": "version", "label": "Version", "type": "number"},
]
WORDS = ["refund", "shipping", "返品", "invoice", "zanzibar", "policy", "SKU-001", "osaka"]
INJECTIONS = [
    "' OR '1'='1", "'; DROP TABLE cms_entry; --", "%", "_", "\\", "%' OR workspace_id <> 0 --",
    "workspace_id", "$where", "$or", "metadata->>'workspace'", "fields.title", "1=1", "\" OR \"\"=\"",
    "../globex", "acme' --", "') OR ('a'='a", "*", "null", "\u00a0", "ＲＥＦＵＮＤ",
]
FILTER_KEYS = [
    "content_type", "status", "source_kind", "title", "fields.title", "version", "fields.version", "body",
    "workspace", "workspace_id", "id", "entry_id", "metadata", "fields", "$where", "$or", "$and",
    "metadata->>'workspace'", "fields.title' OR '1'='1", "fields.workspace_id", "title.0", "$eq",
]
FILTER_OPERATORS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists", "$not", "$where",
                    "$regex", "$contains", "$or", "$elemMatch"]
STATUSES = ["draft", "published", "archived", "DRAFT", "draft' OR '1'='1"]


# --- worlds -----------------------------------------------------------------------------------

entry_specs = st.tuples(
    st.integers(0, 1),  # content type (index, modulo the workspace's count)
    st.sampled_from([EntryStatus.DRAFT, EntryStatus.PUBLISHED]),
    st.lists(st.sampled_from(WORDS + INJECTIONS), min_size=1, max_size=3),
)
workspace_specs = st.fixed_dictionaries({
    "types": st.lists(st.tuples(st.sampled_from(API_IDS), st.booleans()), min_size=1, max_size=2,
                      unique_by=lambda t: t[0]),
    "entries": st.lists(entry_specs, min_size=1, max_size=4),
})
user_specs = st.fixed_dictionaries({
    "roles": st.lists(st.sampled_from([None, Role.OWNER, Role.EDITOR, Role.VIEWER]), min_size=len(SLUGS),
                      max_size=len(SLUGS)),
    "superuser": st.sampled_from([False, False, False, False, True]),
    "active": st.sampled_from([True, True, True, True, False]),
})
key_specs = st.fixed_dictionaries({
    "workspace": st.integers(0, len(SLUGS) - 1),
    "drafts": st.booleans(),
    "state": st.sampled_from(["live", "live", "live", "expired", "revoked"]),
})
world_specs = st.fixed_dictionaries({
    "workspaces": st.lists(workspace_specs, min_size=2, max_size=len(SLUGS)),
    "users": st.lists(user_specs, min_size=1, max_size=3),
    "keys": st.lists(key_specs, min_size=1, max_size=4),
})


@dataclass(frozen=True)
class UserActor:
    user: Any
    roles: dict[int, str]  # workspace pk -> role (members only)
    superuser: bool
    active: bool


@dataclass(frozen=True)
class KeyActor:
    secret: str
    workspace: Workspace
    include_drafts: bool
    state: str  # live, expired, revoked


@dataclass
class World:
    workspaces: list[Workspace]
    content_types: list[ContentType]
    entries: list[Entry]
    users: list[UserActor]
    keys: list[KeyActor]

    @property
    def slugs(self) -> list[str]:
        return [ws.slug for ws in self.workspaces]


def world_build(spec: dict) -> World:
    """The world `spec` describes, written through the services (the pins checked by the promotion
    service's own check and saved together); chunks embedded (fake provider)."""
    workspaces = [services.workspace_create(slug=SLUGS[i], name=SLUGS[i].title())
                  for i in range(len(spec["workspaces"]))]
    content_types, entries, pins = [], [], []
    for workspace, ws_spec in zip(workspaces, spec["workspaces"]):
        types = [services.content_type_create(workspace=workspace, api_id=api_id, name=api_id.title(),
                                              fields=[dict(f) for f in FIELDS], semantic_search_enabled=semantic)
                 for api_id, semantic in ws_spec["types"]]
        content_types += types
        for n, (type_index, status, words) in enumerate(ws_spec["entries"]):
            text = " ".join(words)
            entries.append(services.entry_create(
                content_type=types[type_index % len(types)], status=status,
                data={"title": f"{text} {workspace.slug}", "body": f"<p>{text} ({status})</p>", "version": n},
            ))
            # Every entry, drafts too, is pinned to each of its words: a promoted result must
            # still never reach another workspace or a caller who may not see drafts.
            pins += _entry_pins(workspace, entries[-1], [*words, workspace.slug], position=n)
    # The pins are the rows promotion_create writes, checked by its own check, saved in one statement:
    # one create each was ~70 of a world's ~200 statements (docs/design/suite.md).
    Promotion.objects.bulk_create(pins)
    chunks_embed_pending()
    users = []
    for n, user_spec in enumerate(spec["users"]):
        user = get_user_model().objects.create(username=f"user{n}", is_staff=True,
                                               is_superuser=user_spec["superuser"], is_active=user_spec["active"])
        roles = {}
        for workspace, role in zip(workspaces, user_spec["roles"]):
            if role is not None:
                services.membership_set(workspace=workspace, user=user, role=role)
                roles[workspace.pk] = role
        users.append(UserActor(user=user, roles=roles, superuser=user_spec["superuser"], active=user_spec["active"]))
    keys = []
    for n, key_spec in enumerate(spec["keys"]):
        workspace = workspaces[key_spec["workspace"] % len(workspaces)]
        api_key, secret = services.api_key_create(workspace=workspace, name=f"key {n}",
                                                  include_drafts=key_spec["drafts"],
                                                  expires_at=timezone.now() + datetime.timedelta(days=1))
        if key_spec["state"] == "expired":
            ApiKey.objects.filter(pk=api_key.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
        elif key_spec["state"] == "revoked":
            services.api_key_revoke(api_key=api_key)
        keys.append(KeyActor(secret=secret, workspace=workspace, include_drafts=key_spec["drafts"],
                             state=key_spec["state"]))
    return World(workspaces=workspaces, content_types=content_types, entries=entries, users=users, keys=keys)


def _entry_pins(workspace: Workspace, entry: Entry, phrases: list[str], *, position: int) -> list[Promotion]:
    """The promotions promotion_create would write pinning `entry` to each phrase: each checked by
    promotion_phrase_checked, as promotion_create checks it; a phrase that normalises to nothing is
    refused, and one whose key an earlier phrase had is the same pin (promotion_already_pinned)."""
    pins: dict[str, Promotion] = {}
    for phrase in dict.fromkeys(phrases):
        try:
            shown, key = services.promotion_phrase_checked(workspace=workspace, phrase=phrase, entry=entry)
        except ValidationError:
            continue
        pins.setdefault(key, Promotion(workspace=workspace, phrase=shown, phrase_key=key, entry=entry,
                                       position=position, match=PromotionMatch.IS))
    return list(pins.values())


# --- probes -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WorkspaceId:
    """Another workspace's primary key, resolved once the world exists: database ids differ
    from one run of an example to the next, and strategies must not depend on them."""

    index: int
    as_text: bool


def resolve(value: Any, world: World) -> Any:
    """`value` with every WorkspaceId replaced by the id it names."""
    if isinstance(value, WorkspaceId):
        pk = world.workspaces[value.index % len(world.workspaces)].pk
        return str(pk) if value.as_text else pk
    if isinstance(value, dict):
        return {key: resolve(item, world) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, world) for item in value]
    return value


def _values(world: World) -> st.SearchStrategy:
    """Filter values and query words that point elsewhere: other slugs, ids, types, titles, SQL."""
    names = world.slugs + API_IDS + STATUSES + ["entry", "asset"] + INJECTIONS + [e.title for e in world.entries[:6]]
    return st.one_of(st.sampled_from(names), st.builds(WorkspaceId, st.integers(0, len(SLUGS) - 1), st.booleans()),
                     st.integers(-1, 50), st.booleans(), st.none())


def filters(world: World) -> st.SearchStrategy:
    values = _values(world)
    operand = st.one_of(values, st.lists(values, max_size=3))
    expression = st.one_of(values, st.dictionaries(st.sampled_from(FILTER_OPERATORS), operand, min_size=1, max_size=2))
    leaf = st.dictionaries(st.sampled_from(FILTER_KEYS), expression, min_size=1, max_size=2)
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, min_size=1, max_size=3).map(lambda parts: {"$or": parts}),
            st.lists(inner, min_size=1, max_size=3).map(lambda parts: {"$and": parts}),
            inner.map(lambda part: {"$not": part}),
        ),
        max_leaves=5,
    )


def queries(world: World, workspace: Workspace | None) -> st.SearchStrategy:
    """Words of the asked workspace's entries (so searches find something), or anything else."""
    own = [word for entry in world.entries if workspace and entry.workspace_id == workspace.pk
           for word in entry.title.split() if len(word) > 1] or WORDS
    return st.one_of(st.sampled_from(own), st.sampled_from(own), st.sampled_from(WORDS),
                     _values(world).map(lambda value: str(resolve(value, world))), st.text(min_size=1, max_size=12))


@dataclass(frozen=True)
class Probe:
    slug: str
    query: str
    content_type: str | None
    status: str | None
    filter: Any


def probes(world: World, home: list[str]) -> st.SearchStrategy[Probe]:
    """A probe of one of the caller's own workspaces (`home`) more often than not, else of any
    workspace, or of one that does not exist."""
    slugs = st.one_of(st.sampled_from(home), st.sampled_from(home), st.sampled_from(world.slugs + ["nope"])) \
        if home else st.sampled_from(world.slugs + ["nope"])
    return slugs.flatmap(lambda slug: st.builds(
        Probe,
        slug=st.just(slug),
        query=queries(world, _workspace(world, slug)),
        content_type=st.one_of(st.none(), st.none(), st.sampled_from(API_IDS), st.sampled_from(INJECTIONS)),
        status=st.one_of(st.none(), st.none(), st.none(), st.sampled_from(STATUSES)),
        filter=st.one_of(st.none(), st.none(), filters(world).map(lambda spec: resolve(spec, world))),
    ))


def home_slugs(world: World, caller: tuple) -> list[str]:
    """The workspaces the caller may search (for a key, its own; for a user, where they have a role)."""
    actor = next((part for part in caller if isinstance(part, (KeyActor, UserActor))), None)
    if isinstance(actor, KeyActor):
        return [actor.workspace.slug]
    if isinstance(actor, UserActor):
        return world.slugs if actor.superuser else [ws.slug for ws in world.workspaces if ws.pk in actor.roles]
    return []


# --- the oracle -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Expected:
    """What a caller gets for one workspace: a refusal (status and code), or access."""

    workspace: Workspace | None = None
    include_drafts: bool = False
    refusal: tuple[int, str] | None = None


def _workspace(world: World, slug: str) -> Workspace | None:
    return next((ws for ws in world.workspaces if ws.slug == slug), None)


def expected_for_key(world: World, key: KeyActor, slug: str | None) -> Expected:
    """A key reaches its own workspace only; expired and revoked keys are refused first."""
    if key.state == "expired":
        return Expected(refusal=(401, "api_key_expired"))
    if key.state == "revoked":
        return Expected(refusal=(401, "api_key_revoked"))
    if slug is not None and slug != key.workspace.slug:
        return Expected(refusal=(404, "not_found"))
    return Expected(workspace=key.workspace, include_drafts=key.include_drafts)


def expected_for_user(world: World, actor: UserActor, slug: str) -> Expected:
    """A member sees as their role; a non-member gets the 404 of a missing workspace."""
    if not actor.active:
        return Expected(refusal=(401, "not_authenticated"))
    workspace = _workspace(world, slug)
    role = Role.OWNER if actor.superuser else actor.roles.get(workspace.pk) if workspace else None
    if workspace is None or role is None:
        return Expected(refusal=(404, "not_found"))
    return Expected(workspace=workspace, include_drafts=role in (Role.OWNER, Role.EDITOR))


def expected_for_operator(world: World, slug: str, *, published_only: bool) -> Expected:
    workspace = _workspace(world, slug)
    if workspace is None:
        return Expected(refusal=(404, "not_found"))
    return Expected(workspace=workspace, include_drafts=not published_only)


def entry_violations(expected: Expected, entry_ids: Iterable[int]) -> list[str]:
    """Entries outside the caller's workspace, or drafts the caller may not see."""
    problems = []
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=list(entry_ids))}
    for entry_id in entry_ids:
        entry = entries.get(entry_id)
        if entry is None:
            problems.append(f"entry {entry_id} does not exist")
        elif entry.workspace_id != expected.workspace.pk:
            problems.append(f"entry {entry_id} of workspace {entry.workspace_id}, asked {expected.workspace.pk}")
        elif entry.status != EntryStatus.PUBLISHED and not expected.include_drafts:
            problems.append(f"draft entry {entry_id} shown to a caller without drafts")
    return problems


def source_violations(expected: Expected, sources: list[dict]) -> list[str]:
    """Chunks (semantic or hybrid sources) outside the caller's workspace or draft policy."""
    problems = []
    # Chunks and their entries read apart, by id: on Citus a join of the two by entry id alone,
    # without the workspace (the oracle does not assume it), is a join it cannot plan.
    chunks = {c.pk: c for c in Chunk.objects.filter(pk__in=[s["id"] for s in sources])}
    for source in sources:
        chunk = chunks.get(source["id"])
        if chunk is None:
            problems.append(f"chunk {source['id']} does not exist")
            continue
        if chunk.workspace_id != expected.workspace.pk or source["metadata"].get("workspace") != expected.workspace.slug:
            problems.append(f"chunk {chunk.pk} of workspace {chunk.workspace_id}, asked {expected.workspace.pk}")
        if chunk.entry_id is not None:
            problems += entry_violations(expected, [chunk.entry_id])
    return problems


@dataclass
class Tally:
    """Cases per interface and what they ended in, for the figures and the non-vacuity check."""

    cases: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)

    def record(self, interface: str, outcome: str) -> None:
        self.cases[interface] += 1
        self.outcomes[(interface, outcome)] += 1

    def summary(self, interface: str) -> str:
        parts = sorted((outcome, n) for (name, outcome), n in self.outcomes.items() if name == interface)
        return f"{interface}: {self.cases[interface]} cases (" + ", ".join(f"{o} {n}" for o, n in parts) + ")"
