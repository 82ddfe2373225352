"""Create the demo workspace (English and Japanese entries) and an admin user; safe to re-run."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from cms import services
from cms.models import ContentType, EntryStatus, Workspace

ARTICLE_FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
    {"id": "version", "label": "Version", "type": "number"},
    {"id": "published_on", "label": "Published on", "type": "date"},
]
PRODUCT_FIELDS = [
    {"id": "name", "label": "Name", "type": "text", "required": True},
    {"id": "sku", "label": "SKU", "type": "text"},
    {"id": "price", "label": "Price (JPY)", "type": "number"},
    {"id": "in_stock", "label": "In stock", "type": "boolean"},
]

# Rich text is Markdown (cms/richtext.py), as the admin's editor writes it.
ARTICLES = [
    ("Refund policy", "## Refunds\n\nYou can return any item within **30 days** of delivery for a full "
     "refund. Items must be unused and in their original packaging.\n\nRefunds are issued to the "
     "original payment method within 5 business days.", 3),
    ("Shipping times", "Orders ship from our **Osaka** warehouse within two business days. Delivery "
     "inside Japan takes 1-3 days; international delivery takes 7-14 days.", 2),
    ("返品・返金について", "## 返品\n\n商品到着後**30日以内**であれば、未使用品に限り返品を承ります。"
     "\n\n返金は元のお支払い方法に5営業日以内に行います。", 1),
    ("配送料金のご案内", "5,000円以上のご注文で国内送料無料です。沖縄・離島は別途料金がかかります。", 1),
    ("Password reset", "To reset your password, open *Settings*, choose *Security*, and follow the "
     "link we email you. The link expires after one hour.", 5),
    ("アカウントの削除", "アカウントを削除すると、注文履歴とお気に入りは復元できません。"
     "設定画面の「アカウント」から手続きできます。", 1),
]
PRODUCTS = [
    ("Ceramic tea cup", "TEA-CUP-001", 2400, True),
    ("有田焼 湯呑み", "ARITA-YUN-02", 3800, True),
    ("Cast iron kettle", "KETTLE-IRON-7", 12800, False),
    ("抹茶 茶筅セット", "MATCHA-SET-10", 5600, True),
]


class Command(BaseCommand):
    help = "Create the demo workspace with English and Japanese entries, and an admin user."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")
        parser.add_argument("--password", default="admin")

    @transaction.atomic
    def handle(self, *args, username: str, password: str, **options):
        User = get_user_model()
        admin, created_user = User.objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True, "email": f"{username}@example.com"}
        )
        if created_user:
            admin.set_password(password)
            admin.save()
        workspace = Workspace.objects.filter(slug="demo").first()
        if workspace is None:
            workspace = services.workspace_create(slug="demo", name="Demo workspace", owner=admin)
            articles = services.content_type_create(
                workspace=workspace, api_id="article", name="Article", fields=ARTICLE_FIELDS,
                semantic_search_enabled=True,
            )
            # Products are searched by meaning too: a new editor who types "kettle" into the default
            # (hybrid) search should find the kettle, not "no good match" (issue 51).
            products = services.content_type_create(
                workspace=workspace, api_id="product", name="Product", fields=PRODUCT_FIELDS,
                semantic_search_enabled=True,
            )
            for title, body, version in ARTICLES:
                services.entry_create(
                    content_type=articles,
                    data={"title": title, "body": body, "version": version, "published_on": "2026-11-01"},
                    status=EntryStatus.PUBLISHED,
                    created_by=admin,
                )
            for name, sku, price, in_stock in PRODUCTS:
                services.entry_create(
                    content_type=products,
                    data={"name": name, "sku": sku, "price": price, "in_stock": in_stock},
                    status=EntryStatus.PUBLISHED,
                    created_by=admin,
                )
            self.stdout.write(f"Created workspace 'demo' with {ContentType.objects.for_workspace(workspace).count()} "
                              f"content types and {len(ARTICLES) + len(PRODUCTS)} entries.")
        else:
            self.stdout.write("Workspace 'demo' already exists; left as it is.")
        if created_user:
            self.stdout.write(self.style.SUCCESS(f"Admin user: {username} / {password}"))
        else:
            self.stdout.write(f"Admin user: {username} (existing; password unchanged)")
