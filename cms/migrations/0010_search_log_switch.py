"""A workspace's switch for its search log (search/insights/search_log.py): on unless an operator turns it off."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cms", "0009_tags_promotions")]

    operations = [
        migrations.AddField(
            model_name="workspace",
            name="search_log_enabled",
            field=models.BooleanField(
                default=True, help_text="Log this workspace's searches (normalised query, result count, latency, a "
                "hashed caller) for its search insights page. Off: nothing is logged and searches carry no search_id."),
        ),
    ]
