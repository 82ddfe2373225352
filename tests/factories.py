"""factory_boy factories for the content domain. Entries are created through the services."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from cms import services
from cms.access import WorkspaceAccess, workspace_access_for_operator
from cms.models import ApiKey, ContentType, Entry, EntryStatus, Membership, Role, Workspace

ARTICLE_FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
    {"id": "version", "label": "Version", "type": "number"},
    {"id": "published_on", "label": "Published on", "type": "date"},
    {"id": "featured", "label": "Featured", "type": "boolean"},
]


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    is_staff = True
    password = factory.PostGenerationMethodCall("set_password", "pw")

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class WorkspaceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Workspace
        django_get_or_create = ["slug"]

    slug = factory.Sequence(lambda n: f"ws{n}")
    name = factory.LazyAttribute(lambda o: f"Workspace {o.slug}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    workspace = factory.SubFactory(WorkspaceFactory)
    role = Role.EDITOR


class ContentTypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ContentType

    workspace = factory.SubFactory(WorkspaceFactory)
    api_id = factory.Sequence(lambda n: f"article{n}")
    name = "Article"
    fields = factory.LazyFunction(lambda: [dict(f) for f in ARTICLE_FIELDS])
    semantic_search_enabled = False


def entry_make(content_type: ContentType, status: str = EntryStatus.PUBLISHED, **data) -> Entry:
    """An entry created through entry_create, so every listener sees it as in production."""
    return services.entry_create(content_type=content_type, data=data, status=status)


def full_access(workspace: Workspace) -> WorkspaceAccess:
    """Access that sees everything in `workspace` (drafts too), as an operator does."""
    return workspace_access_for_operator(workspace=workspace)


def api_key_make(workspace: Workspace, *, include_drafts: bool = False, name: str = "agent", **kwargs) -> tuple[ApiKey, str]:
    """An API key for `workspace` made by the service, and its secret."""
    return services.api_key_create(workspace=workspace, name=name, include_drafts=include_drafts, **kwargs)


def bearer(secret: str) -> dict[str, str]:
    """Test-client keyword arguments that send `secret` as a Bearer key."""
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
