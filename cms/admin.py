"""Django admin for the content domain. Editors see only the workspaces they belong to.

Saves and deletes go through cms.services, so the admin validates and announces changes
exactly like the API does.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from cms import services
from cms.access import entry_visibility_q
from cms.models import Asset, ContentType, Entry, Membership, Role, Workspace
from cms.selectors import workspace_list_for_user


def _roles(request: HttpRequest) -> dict[int, str]:
    """The user's role per workspace id, cached on the request."""
    if not hasattr(request, "_workspace_roles"):
        request._workspace_roles = dict(
            Membership.objects.filter(user=request.user).values_list("workspace_id", "role")
        )
    return request._workspace_roles


class WorkspaceScopedAdmin(admin.ModelAdmin):
    """Limits rows and workspace choices to the user's workspaces (all, for a superuser).

    Permissions come from membership roles, not Django's per-model permissions: viewers
    may look, editors and owners may also write.
    """

    workspace_lookup = "workspace"
    writer_roles = frozenset({Role.OWNER, Role.EDITOR})

    def _workspace_id(self, obj) -> int:
        return obj.workspace_id

    def _allowed(self, request: HttpRequest, obj, roles) -> bool:
        if request.user.is_superuser:
            return True
        memberships = _roles(request)
        if obj is None:
            return any(role in roles for role in memberships.values())
        return memberships.get(self._workspace_id(obj)) in roles

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff and (request.user.is_superuser or bool(_roles(request)))

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return self._allowed(request, obj, frozenset(Role.values))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._allowed(request, None, self.writer_roles)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return self._allowed(request, obj, self.writer_roles)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return self._allowed(request, obj, self.writer_roles)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        workspaces = workspace_list_for_user(user=request.user)
        return super().get_queryset(request).filter(**{f"{self.workspace_lookup}__in": workspaces})

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "workspace":
            kwargs["queryset"] = workspace_list_for_user(user=request.user)
        elif db_field.name == "content_type":
            kwargs["queryset"] = ContentType.objects.filter(
                workspace__in=workspace_list_for_user(user=request.user)
            ).select_related("workspace")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Workspace)
class WorkspaceAdmin(WorkspaceScopedAdmin):
    list_display = ["slug", "name", "created_at"]
    search_fields = ["slug", "name"]
    writer_roles = frozenset({Role.OWNER})

    def _workspace_id(self, obj) -> int:
        return obj.pk

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return workspace_list_for_user(user=request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def save_model(self, request, obj: Workspace, form, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
        else:
            obj.pk = services.workspace_create(slug=obj.slug, name=obj.name, owner=request.user).pk


@admin.register(Membership)
class MembershipAdmin(WorkspaceScopedAdmin):
    list_display = ["user", "workspace", "role"]
    list_filter = ["role"]
    writer_roles = frozenset({Role.OWNER})


class ContentTypeForm(forms.ModelForm):
    class Meta:
        model = ContentType
        fields = ["workspace", "api_id", "name", "fields", "semantic_search_enabled"]


@admin.register(ContentType)
class ContentTypeAdmin(WorkspaceScopedAdmin):
    form = ContentTypeForm
    list_display = ["name", "api_id", "workspace", "semantic_search_enabled"]
    list_filter = ["semantic_search_enabled"]

    def save_model(self, request, obj: ContentType, form, change: bool) -> None:
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


class EntryForm(forms.ModelForm):
    """Validates `data` against the content type's schema, naming the bad field."""

    class Meta:
        model = Entry
        fields = ["content_type", "status", "data"]

    def clean(self):
        cleaned = super().clean()
        content_type = cleaned.get("content_type")
        if content_type is not None and "data" in cleaned:
            from cms.schemas import entry_data_validate

            try:
                cleaned["data"] = entry_data_validate(content_type.fields, cleaned["data"])
            except ValidationError as exc:
                raise ValidationError(
                    {"data": [f"{field}: {' '.join(messages)}" for field, messages in exc.message_dict.items()]}
                ) from exc
        return cleaned


@admin.register(Entry)
class EntryAdmin(WorkspaceScopedAdmin):
    form = EntryForm
    list_display = ["id", "display_title", "content_type", "status", "created_at"]
    list_filter = ["status", "content_type"]
    list_select_related = ["content_type", "workspace"]
    readonly_fields = ["workspace", "created_at", "updated_at", "created_by"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # Viewers see published entries only (cms/access.py), in lists and change pages alike.
        return super().get_queryset(request).filter(entry_visibility_q(user=request.user))

    @admin.display(description="title")
    def display_title(self, entry: Entry) -> str:
        return entry.title[:80] or f"Entry {entry.pk}"

    def save_model(self, request, obj: Entry, form, change: bool) -> None:
        if change:
            services.entry_update(entry=obj, data=obj.data, status=obj.status)
        else:
            created = services.entry_create(
                content_type=obj.content_type, data=obj.data, status=obj.status, created_by=request.user
            )
            obj.pk = created.pk

    def delete_model(self, request, obj: Entry) -> None:
        services.entry_delete(entry=obj)

    def delete_queryset(self, request, queryset: QuerySet) -> None:
        for entry in queryset:
            services.entry_delete(entry=entry)


class AssetForm(forms.ModelForm):
    upload = forms.FileField(required=True)

    class Meta:
        model = Asset
        fields = ["workspace"]

    def clean_upload(self):
        upload = self.cleaned_data["upload"]
        self.upload_content = upload.read()
        services.asset_content_check(filename=upload.name, content=self.upload_content, mime_type=upload.content_type)
        return upload


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

    def save_model(self, request, obj: Asset, form, change: bool) -> None:
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

    def delete_model(self, request, obj: Asset) -> None:
        services.asset_delete(asset=obj)

    def delete_queryset(self, request, queryset: QuerySet) -> None:
        for asset in queryset:
            services.asset_delete(asset=asset)
