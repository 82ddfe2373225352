"""Django admin for the content domain: workspaces, memberships, content types and assets.

Editors see only the workspaces they belong to; cms/admin/base.py's WorkspaceScopedAdmin
checks every write against the caller's role. Entries, promotions and API keys have admin
modules of their own; each module registers its own admins (cms/admin/__init__.py imports them).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy as _

from cms import services
from cms.admin.access import MANAGE_ROLES
from cms.admin.base import WorkspaceScopedAdmin, form_errors_from_service
from cms.models import Asset, ContentType, Membership, Role, Workspace
from cms.admin.field_builder import SchemaJSONField, field_builder_config
from cms.schemas import content_type_fields_validate


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
