"""Workspace.search_fusion: a workspace's pinned hybrid fusion (issue 18), null = the default."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cms", "0006_membership_owner_kept")]

    operations = [
        migrations.AddField(
            model_name="workspace",
            name="search_fusion",
            field=models.JSONField(blank=True, default=None, editable=False, null=True),
        ),
    ]
