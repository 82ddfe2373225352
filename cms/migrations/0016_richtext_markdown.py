"""Rich text fields hold Markdown (cms/richtext.py): every stored value written in HTML (the first
demo seed's, imports') becomes Markdown, so it opens in the Markdown editor as text, not tags.

Values already in Markdown are left alone. Chunks are not rewritten here (a migration sends no
signals): `manage.py reindex` re-chunks them afterwards (docs/operators.md, "Upgrading"); the
text they hold reads the same, since both forms render to it (ingestion.chunking.richtext_to_text).
Not reversible in content (HTML stays valid inside Markdown): reversing leaves the values as they are.
"""

from django.db import migrations

BATCH = 500


def richtext_values_to_markdown(apps, schema_editor):
    from cms.richtext import richtext_from_html, richtext_is_html

    ContentType = apps.get_model("cms", "ContentType")
    Entry = apps.get_model("cms", "Entry")
    for content_type in ContentType.objects.order_by("pk").iterator():
        rich = [field["id"] for field in content_type.fields or [] if field.get("type") == "richtext"]
        if not rich:
            continue
        entries = Entry.objects.filter(content_type_id=content_type.pk).order_by("pk").only("pk", "data")
        for entry in entries.iterator(chunk_size=BATCH):
            data = dict(entry.data or {})
            changed = False
            for field_id in rich:
                value = data.get(field_id)
                if isinstance(value, str) and richtext_is_html(value):
                    data[field_id] = richtext_from_html(value)
                    changed = True
            if changed:  # update(): no save() hooks, and updated_at stays when the editor wrote it
                Entry.objects.filter(pk=entry.pk).update(data=data)


class Migration(migrations.Migration):
    dependencies = [
        ("cms", "0015_entry_ws_sample"),
    ]

    operations = [
        migrations.RunPython(richtext_values_to_markdown, migrations.RunPython.noop),
    ]
