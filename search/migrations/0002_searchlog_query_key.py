# The search log's folded query (search/models.py SearchLog.query_key), computed by the database.
# Adding a stored generated column rewrites search_searchlog once, under its lock: the log's
# writes wait (they are buffered in each process and retried; none is lost).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('search', '0001_initial'),
        ('cms', '0012_text_fold'),  # cms_text_fold
    ]

    operations = [
        migrations.AddField(
            model_name='searchlog',
            name='query_key',
            field=models.GeneratedField(db_persist=True, expression=models.Func(models.F('query'), function='cms_text_fold', output_field=models.TextField()), output_field=models.TextField()),
        ),
    ]
