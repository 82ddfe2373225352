"""The search log and its clicks (search/models.py): tenant tables keyed by (workspace_id, id)."""

import django.db.models.deletion
import uuid
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('cms', '0006_membership_owner_kept'),
    ]

    operations = [
        migrations.CreateModel(
            name='SearchClick',
            fields=[
                ('pk', models.CompositePrimaryKey('workspace', 'id', blank=True, editable=False, primary_key=True, serialize=False)),
                ('id', models.UUIDField(default=uuid.uuid4)),
                ('search_id', models.UUIDField()),
                ('created_at', models.DateTimeField()),
                ('entry_id', models.BigIntegerField(null=True)),
                ('chunk_id', models.BigIntegerField(null=True)),
                ('position', models.PositiveIntegerField()),
                ('workspace', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cms.workspace')),
            ],
            options={
                'indexes': [models.Index(fields=['workspace', 'search_id'], name='searchclick_ws_search'), models.Index(fields=['created_at'], name='searchclick_created')],
            },
        ),
        migrations.CreateModel(
            name='SearchLog',
            fields=[
                ('pk', models.CompositePrimaryKey('workspace', 'id', blank=True, editable=False, primary_key=True, serialize=False)),
                ('id', models.UUIDField(default=uuid.uuid4)),
                ('created_at', models.DateTimeField()),
                ('interface', models.CharField(max_length=16)),
                ('kind', models.CharField(max_length=16)),
                ('query', models.CharField(max_length=200)),
                ('results', models.PositiveIntegerField()),
                ('latency_ms', models.FloatField()),
                ('caller', models.CharField(max_length=16)),
                ('workspace', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cms.workspace')),
            ],
            options={
                'indexes': [models.Index(fields=['workspace', 'created_at'], name='searchlog_ws_created'), models.Index(fields=['created_at'], name='searchlog_created')],
            },
        ),
    ]
