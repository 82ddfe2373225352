"""The admin page for workspace API keys: owners create and revoke them; a secret is shown once.

Self-contained on purpose: only a workspace's owners (and
superusers) see its keys. The stored hash is never displayed, and a key's secret exists only
in the response to the form that created it: not in the database, the session, or a message.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from cms.api_keys import API_KEY_MAX_LIFETIME_DAYS, api_key_expires_at
from cms.models import ApiKey, Membership, Role, Workspace
from cms.services import api_key_create, api_key_revoke

FIELDS_SHOWN = ["workspace", "name", "prefix_display", "include_drafts", "state", "created_at", "created_by",
                "expires_at", "revoked_at", "last_used_at"]


def _owned_workspaces(request: HttpRequest) -> QuerySet[Workspace]:
    if request.user.is_superuser:
        return Workspace.objects.all()
    return Workspace.objects.filter(memberships__user=request.user, memberships__role=Role.OWNER)


class ApiKeyCreateForm(forms.ModelForm):
    # The bound is checked by api_key_expires_at (one message for the form and the command);
    # the widget's min and max only help the browser.
    expires_in_days = forms.IntegerField(
        required=False,
        widget=forms.NumberInput(attrs={"min": 1, "max": API_KEY_MAX_LIFETIME_DAYS}),
        help_text=f"1 to {API_KEY_MAX_LIFETIME_DAYS} days (ten years). Leave empty for a key that does not expire.",
    )

    class Meta:
        model = ApiKey
        fields = ["workspace", "name", "include_drafts"]
        help_texts = {"include_drafts": _("Without it the key sees published content only.")}

    def clean_expires_in_days(self) -> int | None:
        days = self.cleaned_data.get("expires_in_days")
        try:
            api_key_expires_at(days)
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from exc
        return days


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ["name", "prefix_display", "workspace", "include_drafts", "state", "expires_at", "last_used_at"]
    list_filter = ["include_drafts"]
    list_select_related = ["workspace"]
    actions = ["revoke_selected"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return user.is_active and user.is_staff and (
            user.is_superuser or Membership.objects.filter(user=user, role=Role.OWNER).exists()
        )

    def _owns(self, request: HttpRequest, obj: ApiKey | None) -> bool:
        if not self.has_module_permission(request):
            return False
        return obj is None or _owned_workspaces(request).filter(pk=obj.workspace_id).exists()

    def has_view_permission(self, request: HttpRequest, obj: ApiKey | None = None) -> bool:
        return self._owns(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._owns(request, None)

    def has_change_permission(self, request: HttpRequest, obj: ApiKey | None = None) -> bool:
        # A key is never edited: its scope is fixed when its secret is handed out. Revoke it instead.
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ApiKey | None = None) -> bool:
        return False  # revoked keys stay listed: who had access, and until when

    def get_queryset(self, request: HttpRequest) -> QuerySet[ApiKey]:
        return super().get_queryset(request).filter(workspace__in=_owned_workspaces(request))

    def get_form(self, request: HttpRequest, obj: ApiKey | None = None, change: bool = False, **kwargs):
        if obj is None:
            kwargs["form"] = ApiKeyCreateForm
            kwargs["fields"] = ["workspace", "name", "include_drafts", "expires_in_days"]
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: ApiKey | None = None):
        return ["workspace", "name", "include_drafts", "expires_in_days"] if obj is None else FIELDS_SHOWN

    def get_readonly_fields(self, request: HttpRequest, obj: ApiKey | None = None):
        return [] if obj is None else FIELDS_SHOWN

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        if db_field.name == "workspace":
            kwargs["queryset"] = _owned_workspaces(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @admin.display(description=_("key"))
    def prefix_display(self, api_key: ApiKey) -> str:
        return f"cms_{api_key.prefix}_…"

    @admin.display(description=_("state"))
    def state(self, api_key: ApiKey) -> str:
        if api_key.revoked_at is not None:
            return "revoked"
        if api_key.expires_at is not None and api_key.expires_at <= timezone.now():
            return "expired"
        return "active"

    def save_model(self, request: HttpRequest, obj: ApiKey, form, change: bool) -> None:
        days = form.cleaned_data.get("expires_in_days")
        try:
            created, secret = api_key_create(
                workspace=obj.workspace,
                name=obj.name,
                include_drafts=obj.include_drafts,
                expires_at=api_key_expires_at(days),
                created_by=request.user,
            )
        except ValidationError as exc:  # the form already checked the name; kept for safety
            raise forms.ValidationError(exc.messages) from exc
        obj.pk, obj.prefix = created.pk, created.prefix
        request._api_key_secret = secret  # lives for this response only

    def response_add(self, request: HttpRequest, obj: ApiKey, post_url_continue=None) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("API key created"),
            "api_key": obj,
            "secret": request._api_key_secret,
        }
        response = TemplateResponse(request, "admin/cms/apikey/created.html", context)
        # The page carries a secret: no cache may keep it.
        response["Cache-Control"] = "no-store"
        return response

    @admin.action(description=_("Revoke selected API keys"))
    def revoke_selected(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        keys = list(queryset.filter(workspace__in=_owned_workspaces(request)))
        for api_key in keys:
            api_key_revoke(api_key=api_key)
        self.message_user(request, gettext("Revoked %(count)s API key(s).") % {"count": len(keys)}, messages.SUCCESS)
