"""Workers' heartbeats (ingestion.models.WorkerHeartbeat) and an index for the oldest pending chunk's age.

The index is partial (pending chunks only), so it stays as small as the queue.
"""


from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cms', '0015_entry_ws_sample'),
        ('ingestion', '0015_pin_workspace_models'),
    ]

    operations = [
        migrations.CreateModel(
            name='WorkerHeartbeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=255, unique=True)),
                ('queues', models.JSONField(default=list)),
                ('pid', models.PositiveIntegerField()),
                ('started_at', models.DateTimeField()),
                ('seen_at', models.DateTimeField()),
                ('stopped_at', models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.AddIndex(
            model_name='chunk',
            index=models.Index(condition=models.Q(('status', 'pending')), fields=['updated_at'], name='chunk_pending_age'),
        ),
    ]
