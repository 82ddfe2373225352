"""What the admin modules share: WorkspaceScopedAdmin, the one place admin permissions are decided.

Every write is checked against the caller's role in the workspace being written
(cms/admin/access.py), and goes through cms.services, so the admin validates and announces
changes exactly like the API does. Forms run the services' own validation and show its
errors beside their fields (`form_errors_from_service`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.utils.translation import gettext

from cms.access import entry_visibility_q
from cms.admin.access import READ_ROLES, WRITE_ROLES, role_allows, role_allows_any, workspaces_refused, workspaces_with_role
from cms.models import ContentType


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
