"""A promotion's entry key moves into SQL: ingestion 0011 declares it as (entry_id, workspace_id)
-> cms_entry (id, workspace_id), once cms_entry's primary key includes workspace_id (Citus)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("cms", "0010_search_log_switch"),
    ]

    operations = [
        migrations.AlterField(
            model_name="promotion",
            name="entry",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="promotions", to="cms.entry"),
        ),
    ]
