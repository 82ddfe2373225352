"""Workspaces and their content: memberships, content types, entries (JSONB data) and assets.

Every content table carries `workspace_id` and every query filters on it, so the tables can
later be distributed by workspace (Citus) without a redesign.
"""

from __future__ import annotations

import unicodedata
import uuid

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.utils.translation import gettext_lazy as _

from cms.folding import text_normalise


class Workspace(models.Model):
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    # The workspace's pinned hybrid fusion ({"fusion", "keyword_weight", "semantic_weight",
    # "evidence"}), or null for the default. Written only by `manage.py search_fusion pin/unpin`,
    # which checks it on the workspace's judged queries first; read with the workspace row.
    search_fusion = models.JSONField(null=True, blank=True, default=None, editable=False)
    # Whether searches of this workspace are logged for its search insights (search/insights/search_log.py).
    search_log_enabled = models.BooleanField(
        default=True, help_text="Log this workspace's searches (normalised query, result count, latency, a hashed "
        "caller) for its search insights page. Off: nothing is logged and searches carry no search_id.")
    # Typo tolerance of the keyword leg (search/engine/forgiving/typos.py): a word of at least this many
    # characters may be corrected by one edit, and by two (Meilisearch's defaults, 5 and 9).
    typo_one_edit_length = models.PositiveSmallIntegerField(
        default=5, help_text="Words this long or longer may be corrected by one typo.")
    typo_two_edits_length = models.PositiveSmallIntegerField(
        default=9, help_text="Words this long or longer may be corrected by two typos.")
    # Bumped by every change to the workspace's synonym sets (cms.services.synonym_set_*): the
    # searches' cache of them (search/engine/forgiving/synonyms.py) is keyed by it, in every process alike.
    synonyms_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    EDITOR = "editor", _("Editor")
    VIEWER = "viewer", _("Viewer")


class MembershipQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> MembershipQuerySet:
        return self.filter(workspace=workspace)


def cascade_unless_last_owner(collector, field, sub_objs, using) -> None:
    """Membership.user's on_delete: a user's memberships go with the user (CASCADE), unless
    that would leave a workspace with no owner; then the delete is refused (ProtectedError,
    which the admin's delete page shows as protected objects). Users deleted together count
    together; deleting the workspace itself stays possible. Make another member owner, or
    delete the workspace, first."""
    # The collector loads sub_objs with only their ids: read the owner rows in one query.
    owned = list(
        Membership.objects.using(using)
        .filter(pk__in=[membership.pk for membership in sub_objs], role=Role.OWNER)
        .select_related("user", "workspace")
    )
    if owned:
        leaving_users = {user.pk for user in collector.data.get(field.related_model, ())}
        workspace_ids = {membership.workspace_id for membership in owned}
        kept = set(
            Membership.objects.using(using)
            .filter(workspace_id__in=workspace_ids, role=Role.OWNER)
            .exclude(user_id__in=leaving_users)
            .values_list("workspace_id", flat=True)
        )
        kept |= {workspace.pk for workspace in collector.data.get(Workspace, ())}
        orphaning = [membership for membership in owned if membership.workspace_id not in kept]
        if orphaning:
            raise models.ProtectedError(
                "Deleting these users would leave a workspace with no owner; make another member owner first.",
                orphaning,
            )
    models.CASCADE(collector, field, sub_objs, using)


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=cascade_unless_last_owner, related_name="memberships")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.EDITOR)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "user"], name="membership_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.workspace.slug} ({self.role})"


class FieldType(models.TextChoices):
    TEXT = "text", _("Text")
    RICHTEXT = "richtext", _("Rich text")
    NUMBER = "number", _("Number")
    BOOLEAN = "boolean", _("Boolean")
    DATE = "date", _("Date")
    REFERENCE = "reference", _("Reference")
    TAGS = "tags", _("Tags")


# Field types whose values are prose: the ones semantic search ingests.
TEXT_FIELD_TYPES = frozenset({FieldType.TEXT, FieldType.RICHTEXT})


class ContentTypeQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> ContentTypeQuerySet:
        return self.filter(workspace=workspace)

    def semantic(self) -> ContentTypeQuerySet:
        return self.filter(semantic_search_enabled=True)


class ContentType(models.Model):
    """A field schema for entries. `fields` is a list of {"id", "label", "type", "required"?}."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="content_types")
    api_id = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)
    fields = models.JSONField(default=list)
    semantic_search_enabled = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ContentTypeQuerySet.as_manager()

    class Meta:
        ordering = ["workspace_id", "api_id"]
        constraints = [models.UniqueConstraint(fields=["workspace", "api_id"], name="content_type_unique_api_id")]

    def __str__(self) -> str:
        return f"{self.name} ({self.api_id})"

    def field_ids(self, types: frozenset[str] | None = None) -> list[str]:
        return [f["id"] for f in self.fields if types is None or f["type"] in types]

    @property
    def title_field_id(self) -> str | None:
        """The first text field: what an entry's title is taken from."""
        for field in self.fields:
            if field["type"] == FieldType.TEXT:
                return field["id"]
        return None


class EntryStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")


# An entry's sample bucket, 0..ENTRY_SAMPLE_BUCKETS - 1: a hash of its id (not the id itself,
# so entries written in a pattern, every tenth a draft, are not sampled in step). Indexed with
# the workspace (entry_ws_sample); search/engine/facet_sample.py writes the same expression.
ENTRY_SAMPLE_BUCKETS = 1024
ENTRY_SAMPLE_BUCKET = models.Func(models.F("id"), function="hashint8",
                                  output_field=models.IntegerField()).bitand(ENTRY_SAMPLE_BUCKETS - 1)


class EntryQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> EntryQuerySet:
        return self.filter(workspace=workspace)


class Entry(models.Model):
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="entries")
    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="entries")
    data = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=EntryStatus.choices, default=EntryStatus.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True, db_index=False)
    updated_at = models.DateTimeField(auto_now=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Derived from `data` by the database (SQL functions in migrations 0003 and 0005), for
    # full-text search: the string and number values lowercased and joined by U+001F, and a
    # tsvector of each value's lowercased characters and character pairs, each keyed by the
    # workspace ('<workspace id>:<gram>'). Read-only; every writer keeps them current.
    search_text = models.GeneratedField(
        expression=models.Func(models.F("data"), function="cms_entry_search_text", output_field=models.TextField()),
        output_field=models.TextField(),
        db_persist=True,
    )
    search_grams = models.GeneratedField(
        expression=models.Func(
            models.F("workspace"), models.F("data"), function="cms_entry_search_grams", output_field=SearchVectorField()
        ),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    objects = EntryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "entries"
        indexes = [
            models.Index(fields=["workspace", "-created_at", "-id"], name="entry_ws_newest"),
            models.Index(fields=["content_type", "-created_at", "-id"], name="entry_type_newest"),
            # Served queries use `search_grams @@ cms_search_grams_query(<workspace>, …)`
            # (search/engine/fulltext.py). No pending list: every search would read all of it.
            GinIndex(fields=["search_grams"], name="entry_search_grams", fastupdate=False),
            # Full-text's facet sample (search/engine/facet_sample.py) reads a workspace's entries
            # whose sample bucket is at most a cut: a range of this index, never the whole workspace.
            models.Index(models.F("workspace"), ENTRY_SAMPLE_BUCKET, name="entry_ws_sample", include=["id"]),
        ]

    def __str__(self) -> str:
        return self.title or f"Entry {self.pk}"

    @property
    def title(self) -> str:
        field_id = self.content_type.title_field_id
        value = self.data.get(field_id) if field_id else None
        return str(value) if value else ""


class AssetQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> AssetQuerySet:
        return self.filter(workspace=workspace)


# MIME types whose content is decoded, kept as text, and ingested for semantic search.
TEXT_ASSET_MIME_TYPES = frozenset({"text/plain", "text/markdown"})


def asset_upload_to(asset: Asset, filename: str) -> str:
    return f"assets/{asset.workspace_id}/{filename}"


class Asset(models.Model):
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="assets")
    file = models.FileField(upload_to=asset_upload_to, max_length=500)
    filename = models.CharField(max_length=255)
    mime_type = models.CharField(max_length=100)
    size = models.PositiveBigIntegerField()
    text = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = AssetQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["workspace", "-created_at"], name="asset_ws_newest")]

    def __str__(self) -> str:
        return self.filename


class ApiKeyQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> ApiKeyQuerySet:
        return self.filter(workspace=workspace)


class ApiKey(models.Model):
    """A credential scoped to one workspace, for agents: `cms_<prefix>_<secret>`.

    Only `secret_hash` (a keyed HMAC-SHA256, see cms/api_keys.py) is stored; the secret is
    shown once, when the key is created. `prefix` is public: it names the key in lists and
    logs and finds its row.
    """

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=200)
    prefix = models.CharField(max_length=16, unique=True)
    secret_hash = models.CharField(max_length=64)
    include_drafts = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Updated at most once a minute per key (cms.services.api_key_touch).
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects = ApiKeyQuerySet.as_manager()

    class Meta:
        verbose_name = "API key"
        ordering = ["workspace_id", "-created_at"]

    def __str__(self) -> str:
        return f"{self.name} (cms_{self.prefix}_…)"


class SynonymKind(models.TextChoices):
    MULTI_WAY = "multi_way", _("Multi-way (each term finds the others)")
    ONE_WAY = "one_way", _("One-way (the source finds the terms, not back)")


class SynonymSetQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> SynonymSetQuerySet:
        return self.filter(workspace=workspace)


class SynonymSet(models.Model):
    """Words a workspace's searches treat as alike, applied at query time to the keyword leg
    (search/engine/forgiving/synonyms.py), never at indexing: editing a set needs no reindex.

    multi_way: every term of `terms` finds the others (refund, money back, reimbursement).
    one_way: `source` also finds `terms` (phone -> smartphone), not the other way round.
    A tenant table: its key is (workspace_id, id), as Citus wants (cms/citus_layout.py).
    """

    pk = models.CompositePrimaryKey("workspace_id", "id")
    id = models.UUIDField(default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="synonym_sets")
    kind = models.CharField(max_length=16, choices=SynonymKind.choices, default=SynonymKind.MULTI_WAY)
    source = models.CharField(max_length=100, blank=True, default="")
    terms = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    objects = SynonymSetQuerySet.as_manager()

    class Meta:
        ordering = ["workspace_id", "updated_at"]

    def __str__(self) -> str:
        if self.kind == SynonymKind.ONE_WAY:
            return f"{self.source} → {', '.join(self.terms)}"
        return ", ".join(self.terms)


PROMOTION_PHRASE_MAX_CHARS = 200


def promotion_phrase_normalise(text: str) -> str:
    """A query phrase as promotions match it: NFKC (full-width letters and digits read as
    their ASCII forms), case-folded, script variants folded (退貨 is 退货, りんご is リンゴ:
    cms.folding), whitespace runs made one space, trimmed."""
    return " ".join(text_normalise(unicodedata.normalize("NFKC", text).casefold()).split())


class PromotionMatch(models.TextChoices):
    """How a promotion's phrase matches the normalised query (Algolia's anchoring): the whole
    query ("is"), or anywhere in it ("contains": "refunds" and "refund policy" contain "refund")."""

    IS = "is", _("Query is the phrase")
    CONTAINS = "contains", _("Query contains the phrase")


class PromotionQuerySet(models.QuerySet):
    def for_workspace(self, workspace: Workspace) -> PromotionQuerySet:
        return self.filter(workspace=workspace)


class Promotion(models.Model):
    """An entry pinned to the top of every search for a query phrase (an editor's pick).

    `phrase` is what the editor typed (its whitespace tidied), what people see; `phrase_key` is it
    normalised (promotion_phrase_normalise), what searches match the query, normalised the same
    way, against (search/engine/promotions.py); cms.services.promotion_create and
    promotion_update write both. `position` orders several picks."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="promotions")
    phrase = models.CharField(max_length=PROMOTION_PHRASE_MAX_CHARS)
    phrase_key = models.CharField(max_length=PROMOTION_PHRASE_MAX_CHARS, editable=False)
    # The database's foreign key is (entry_id, workspace_id) -> cms_entry (id, workspace_id)
    # (migration ingestion 0011): Citus keeps a promotion on its entry's node.
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, db_constraint=False, related_name="promotions")
    position = models.PositiveSmallIntegerField(default=0)
    match = models.CharField(max_length=8, choices=PromotionMatch.choices, default=PromotionMatch.IS)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PromotionQuerySet.as_manager()

    class Meta:
        ordering = ["workspace_id", "phrase", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "phrase_key", "entry"],
                                    name="promotion_unique_phrase_key_entry"),
        ]

    def __str__(self) -> str:
        # The entry by its title, as editors know it (an id said nothing: "walk → 22").
        return f"{self.phrase} → {self.entry}"
