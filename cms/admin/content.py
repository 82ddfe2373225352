"""Django admin for the content domain. Editors see only the workspaces they belong to.

Every write is checked by WorkspaceScopedAdmin against the caller's role in the workspace
being written (cms/admin/access.py), and goes through cms.services, so the admin validates
and announces changes exactly like the API does. Forms run the services' own validation
and show its errors beside their fields.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.utils.translation import gettext, gettext_lazy as _

from cms import services
from cms.access import entry_visibility_q
from cms.admin.access import (
    MANAGE_ROLES,
    READ_ROLES,
    WRITE_ROLES,
    role_allows,
    role_allows_any,
    workspaces_refused,
    workspaces_with_role,
)
from cms.models import Asset, ContentType, Entry, Membership, Role, Workspace
from cms.admin.field_builder import SchemaJSONField, field_builder_config
from cms.schemas import content_type_fields_validate


def content_type_label(content_type: ContentType) -> str:
    """A content type's name with its workspace: two workspaces may both have "Note (note)"."""
    return f"{content_type} · {content_type.workspace.name}"


def form_errors_from_service(form: forms.BaseForm, exc: ValidationError, *, rename: dict[str, str] | None = None) -> None:
    """Show a service's ValidationError on the form: each message beside the field it names
    (service keys renamed by `rename`), any other above the form."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for key, errors in exc.error_dict.items():
        name = (rename or {}).get(key, key)
        form.add_error(name if name in form.fields else None, errors)


class WorkspaceScopedAdmin(admin.ModelAdmin):
    """The one place admin permissions are decided, from membership roles per workspace.

    Rows are limited to the user's workspaces. Adding, changing, deleting and every bulk
    action require `write_roles` in the workspace written: for a save, the workspace the
    submitted form puts the object in (workspace and content-type choices only offer
    workspaces where the user may write, and save_model checks again); for an action, the
    workspace of every selected row. Subclasses save through services in `service_save`.
    """

    workspace_lookup = "workspace"  # ORM path from a row to its workspace
    # ORM path from a row to the entry it shows (a promotion's pinned entry), if any: a row of
    # an entry the user may not see (a draft, for a viewer) is not one of their rows.
    entry_lookup: str | None = None
    write_roles = WRITE_ROLES

    def workspace_id_of(self, obj: Model) -> int | None:
        """The workspace `obj` is (or, unsaved, will be) written to."""
        return obj.workspace_id

    # --- permissions ---------------------------------------------------------------------

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff and role_allows_any(request, READ_ROLES)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if obj is None:
            return role_allows_any(request, READ_ROLES)
        return role_allows(request, self.workspace_id_of(obj), READ_ROLES)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return role_allows_any(request, self.write_roles)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if obj is None:
            return role_allows_any(request, self.write_roles)
        return role_allows(request, self.workspace_id_of(obj), self.write_roles)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self.has_change_permission(request, obj)

    def write_check(self, request: HttpRequest, workspace_ids: Iterable[int | None]) -> None:
        """Raise PermissionDenied unless the user holds `write_roles` in every workspace."""
        if any(not role_allows(request, ws, self.write_roles) for ws in workspace_ids):
            raise PermissionDenied

    # --- rows and choices ----------------------------------------------------------------

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        readable = workspaces_with_role(request, READ_ROLES)
        rows = super().get_queryset(request).filter(**{f"{self.workspace_lookup}__in": readable})
        if self.entry_lookup is not None:
            rows = rows.filter(entry_visibility_q(user=request.user, path=self.entry_lookup))
        return rows

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        writable = workspaces_with_role(request, self.write_roles)
        if db_field.name == "workspace":
            kwargs["queryset"] = writable
        elif db_field.name == "content_type":
            kwargs["queryset"] = ContentType.objects.filter(workspace__in=writable).select_related("workspace")
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "content_type":
            field.label_from_instance = content_type_label
        return field

    # --- writes --------------------------------------------------------------------------

    def save_model(self, request: HttpRequest, obj: Model, form: forms.ModelForm, change: bool) -> None:
        self.write_check(request, [self.workspace_id_of(obj)])
        self.service_save(request, obj, form, change)

    def service_save(self, request: HttpRequest, obj: Model, form: forms.ModelForm, change: bool) -> None:
        super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        self.write_check(request, [self.workspace_id_of(obj)])
        self.service_delete(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.write_check(request, set(queryset.values_list(self.workspace_lookup, flat=True)))
        for obj in queryset:
            self.service_delete(request, obj)

    def service_delete(self, request: HttpRequest, obj: Model) -> None:
        obj.delete()

    def response_action(self, request: HttpRequest, queryset: QuerySet):
        """Refuse any bulk action, whole, if one selected row is in a workspace the user may
        not write; actions then only ever see rows they may change."""
        if "action" in request.POST:
            targets = queryset
            if request.POST.get("select_across") != "1":
                targets = queryset.filter(pk__in=request.POST.getlist(ACTION_CHECKBOX_NAME))
            workspace_ids = set(targets.values_list(self.workspace_lookup, flat=True))
            refused = workspaces_refused(request, workspace_ids, self.write_roles)
            if refused:
                roles = " or ".join(sorted(self.write_roles))
                names = ", ".join(ws.name for ws in refused)
                self.message_user(
                    request,
                    gettext("Nothing was done: you are not %(roles)s in %(names)s. Select only rows of workspaces you may change.") % {
                        "roles": roles, "names": names},
                    messages.ERROR,
                )
                return HttpResponseRedirect(request.get_full_path())
        return super().response_action(request, queryset)


@admin.register(Workspace)
class WorkspaceAdmin(WorkspaceScopedAdmin):
    list_display = ["slug", "name", "created_at"]
    search_fields = ["slug", "name"]
    readonly_fields = ["search_fusion_pin"]
    workspace_lookup = "pk"
    write_roles = MANAGE_ROLES

    @admin.display(description=_("Hybrid fusion"))
    def search_fusion_pin(self, obj: Workspace) -> str:
        """The pinned fusion, read-only: it changes only through `manage.py search_fusion`,
        which checks it on the workspace's judged queries first."""
        pin = obj.search_fusion if obj.pk else None
        if not pin:
            return gettext("Default (adaptive). Pin another with `manage.py search_fusion pin`.")
        weights = ""
        if pin.get("keyword_weight") is not None:
            weights = f", keyword {pin['keyword_weight']:g} / semantic {1 - pin['keyword_weight']:g}"
        return f"Pinned: {pin.get('fusion', 'adaptive')}{weights} ({pin.get('evidence') or 'no evidence recorded'})"

    def workspace_id_of(self, obj: Workspace) -> int | None:
        return obj.pk

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def save_model(self, request: HttpRequest, obj: Workspace, form, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
        elif request.user.is_superuser:
            obj.pk = services.workspace_create(slug=obj.slug, name=obj.name, owner=request.user).pk
        else:
            raise PermissionDenied


class MembershipForm(forms.ModelForm):
    """Names the user by exact username or e-mail: an owner never sees a list of all users."""

    user = forms.CharField(
        max_length=254, help_text=_("The exact username or e-mail address of an existing user.")
    )

    class Meta:
        model = Membership
        fields = ["workspace", "user", "role"]

    def clean(self):
        cleaned = super().clean()
        role = cleaned.get("role")
        if self.instance.pk is not None and role is not None and role != Role.OWNER:
            # The service checks again, under a lock, when it saves.
            try:
                services.membership_owner_kept_check(losing=[self.instance])
            except ValidationError as exc:
                form_errors_from_service(self, exc)
        return cleaned

    def clean_user(self):
        value = self.cleaned_data["user"].strip()
        users = get_user_model().objects.filter(is_active=True)
        by_username = users.filter(username=value).first()
        if by_username is not None:
            return by_username
        by_email = list(users.filter(email__iexact=value)[:2])
        if len(by_email) > 1:
            raise ValidationError(gettext("Several users have this e-mail address; enter the username instead."))
        if not by_email:
            raise ValidationError(gettext("No user has the username or e-mail “%(value)s”. Check the spelling; it must match exactly.") % {
                "value": value})
        return by_email[0]


@admin.register(Membership)
class MembershipAdmin(WorkspaceScopedAdmin):
    form = MembershipForm
    list_display = ["user", "workspace", "role"]
    list_filter = ["role"]
    list_select_related = ["user", "workspace"]
    write_roles = MANAGE_ROLES

    def get_readonly_fields(self, request: HttpRequest, obj: Membership | None = None):
        # Only the role changes; moving a member is a delete and an add, each checked.
        return ["workspace", "user"] if obj is not None else []

    def service_save(self, request: HttpRequest, obj: Membership, form, change: bool) -> None:
        obj.pk = services.membership_set(workspace=obj.workspace, user=obj.user, role=obj.role).pk

    def get_deleted_objects(self, objs, request: HttpRequest):
        """What the delete page and the bulk delete list, and whether they may proceed: a
        deletion that would leave a workspace with no owner is listed as protected, which
        stops both (the service would refuse it anyway), and said plainly above the page."""
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        try:
            services.membership_owner_kept_check(losing=objs)
        except ValidationError as exc:
            for message in exc.messages:
                self.message_user(request, gettext("Nothing was deleted: %(message)s") % {"message": message}, messages.ERROR)
            protected = [*protected, *exc.messages]
        return deleted, model_count, perms_needed, protected

    def service_delete(self, request: HttpRequest, obj: Membership) -> None:
        services.membership_delete(membership=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        # All or none: deleting two owners one by one would refuse only the second.
        self.write_check(request, set(queryset.values_list(self.workspace_lookup, flat=True)))
        services.membership_delete_many(memberships=queryset)


class ContentTypeForm(forms.ModelForm):
    """Validates the field schema with the service's own validator. The schema is a JSON box
    (indented; cms/admin/field_builder.py) that the field builder fills when JavaScript runs."""

    class Meta:
        model = ContentType
        fields = ["workspace", "api_id", "name", "fields", "semantic_search_enabled"]
        field_classes = {"fields": SchemaJSONField}
        widgets = {"fields": forms.Textarea(attrs={"rows": 12, "class": "vLargeTextField field-builder-json",
                                                   "spellcheck": "false"})}

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("fields") is not None:
            try:
                cleaned["fields"] = content_type_fields_validate(cleaned["fields"])
            except ValidationError as exc:
                form_errors_from_service(self, exc)
        return cleaned


@admin.register(ContentType)
class ContentTypeAdmin(WorkspaceScopedAdmin):
    form = ContentTypeForm
    change_form_template = "admin/cms/contenttype/change_form.html"
    list_display = ["name", "api_id", "workspace", "semantic_search_enabled"]
    list_filter = [("workspace", admin.RelatedOnlyFieldListFilter), "semantic_search_enabled"]
    list_select_related = ["workspace"]

    def render_change_form(self, request: HttpRequest, context, add=False, change=False, form_url="", obj=None):
        context["field_builder"] = field_builder_config(content_type=obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: ContentType | None = None):
        # Entries and chunks are keyed by both: neither moves once the type exists.
        return ["workspace", "api_id"] if obj is not None else []

    def service_save(self, request: HttpRequest, obj: ContentType, form, change: bool) -> None:
        if change:
            services.content_type_update(
                content_type=obj,
                name=obj.name,
                fields=obj.fields,
                semantic_search_enabled=obj.semantic_search_enabled,
            )
        else:
            created = services.content_type_create(
                workspace=obj.workspace,
                api_id=obj.api_id,
                name=obj.name,
                fields=obj.fields,
                semantic_search_enabled=obj.semantic_search_enabled,
            )
            obj.pk = created.pk


class AssetForm(forms.ModelForm):
    """Reads the upload in chunks up to the limit and checks it as asset_upload will."""

    upload = forms.FileField(required=True)

    class Meta:
        model = Asset
        fields = ["workspace"]

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("upload")
        if upload is not None:
            try:
                self.upload_content = services.asset_content_read(filename=upload.name, stream=upload)
                services.asset_content_check(
                    filename=upload.name, content=self.upload_content, mime_type=upload.content_type
                )
            except ValidationError as exc:
                form_errors_from_service(self, exc, rename={"file": "upload", "filename": "upload"})
        return cleaned


@admin.register(Asset)
class AssetAdmin(WorkspaceScopedAdmin):
    list_display = ["filename", "workspace", "mime_type", "size", "created_at"]
    readonly_fields = ["filename", "mime_type", "size", "created_at"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = AssetForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        return ["workspace", "upload"] if obj is None else ["workspace", *self.readonly_fields, "text"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else ["workspace", *self.readonly_fields, "text"]

    def service_save(self, request: HttpRequest, obj: Asset, form, change: bool) -> None:
        if change:
            return
        upload = form.cleaned_data["upload"]
        created = services.asset_upload(
            workspace=form.cleaned_data["workspace"],
            filename=upload.name,
            content=form.upload_content,
            mime_type=upload.content_type,
            uploaded_by=request.user,
        )
        obj.pk = created.pk

    def service_delete(self, request: HttpRequest, obj: Asset) -> None:
        services.asset_delete(asset=obj)


# Entries, through a form built from their content type (cms/admin/entries.py).
from cms.admin.entries import ContentTypeListFilter, EntryAdmin  # noqa: E402, F401 - search.interfaces.admin.entries extends both

admin.site.register(Entry, EntryAdmin)

# Workspace API keys: a self-contained admin of their own (cms/admin/api_keys.py).
from cms.admin.api_keys import ApiKeyAdmin  # noqa: E402
from cms.models import ApiKey  # noqa: E402

admin.site.register(ApiKey, ApiKeyAdmin)

# Promotions (editors' picks), roles as for entries (cms/admin/promotions.py).
from cms.admin.promotions import PromotionAdmin  # noqa: E402
from cms.models import Promotion  # noqa: E402

admin.site.register(Promotion, PromotionAdmin)
