"""The index full-text's facet sample reads (search/engine/facet_sample.py): an entry's workspace
and sample bucket, a hash of its id, with the id (so the cut is an index-only read). Built concurrently: writes to cms_entry go on meanwhile."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("cms", "0014_promotion_phrase_key"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="entry",
            index=models.Index(
                models.F("workspace"),
                models.Func(models.F("id"), function="hashint8", output_field=models.IntegerField()).bitand(1023),
                name="entry_ws_sample",
                include=["id"],
            ),
        ),
    ]
