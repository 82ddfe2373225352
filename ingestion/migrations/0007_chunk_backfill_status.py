"""A `backfill` chunk status (searchable, waiting only for a switch's target model) and its claim queue."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cms', '0005_entry_search_grams_per_workspace'),
        ('ingestion', '0006_chunk_vectors'),
    ]

    operations = [
        migrations.AlterField(
            model_name='chunk',
            name='status',
            field=models.CharField(choices=[('pending', 'Pending'), ('backfill', 'Backfill'), ('embedded', 'Embedded'), ('failed', 'Failed')], default='pending', max_length=16),
        ),
        migrations.AddIndex(
            model_name='chunk',
            index=models.Index(condition=models.Q(('status', 'backfill')), fields=['created_at', 'id'], name='chunk_backfill_queue'),
        ),
    ]
