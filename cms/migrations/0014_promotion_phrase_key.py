"""A promotion keeps its phrase as the editor typed it and matches by a key of its own.

`phrase_key` is the phrase normalised (cms.models.promotion_phrase_normalise: NFKC, case, script
variants, whitespace), what searches match; `phrase` is what people see. Each existing row's key
is computed from its phrase, which is kept as it is (rows written before this held the phrase
already normalised: they show it so until an editor types it again). Two pins of one entry
whose phrases fold alike would be one pin: the one placed first stays (cms.refold, as
`manage.py refold` does). The unique constraint moves from the phrase to the key.
Reversed, the phrase is the key again, as before.
"""

from django.db import migrations, models

from cms.refold import promotions_refold


def _keys_fill(apps, schema_editor):
    promotions_refold(using=schema_editor.connection.alias)


def _phrases_from_keys(apps, schema_editor):
    schema_editor.execute("UPDATE cms_promotion SET phrase = phrase_key WHERE phrase <> phrase_key")


class Migration(migrations.Migration):

    dependencies = [
        ("cms", "0013_promotion_match"),
    ]

    operations = [
        migrations.AddField(
            model_name="promotion",
            name="phrase_key",
            field=models.CharField(default="", editable=False, max_length=200),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(model_name="promotion", name="promotion_unique_phrase_entry"),
        migrations.RunPython(_keys_fill, _phrases_from_keys),
        migrations.AddConstraint(
            model_name="promotion",
            constraint=models.UniqueConstraint(fields=("workspace", "phrase_key", "entry"),
                                               name="promotion_unique_phrase_key_entry"),
        ),
    ]
