"""Workspace API keys replace DRF's user tokens.

rest_framework.authtoken is no longer installed, so nothing would ever drop its table: this
migration does (tokens were stored raw and never expired; docs/operators.md "Upgrading" says what to
do instead), and forgets authtoken's applied migrations so a later reinstall starts clean.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cms', '0003_entry_search_columns'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200)),
                ('prefix', models.CharField(max_length=16, unique=True)),
                ('secret_hash', models.CharField(max_length=64)),
                ('include_drafts', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('expires_at', models.DateTimeField(blank=True, null=True)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('last_used_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('workspace', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_keys', to='cms.workspace')),
            ],
            options={
                'verbose_name': 'API key',
                'ordering': ['workspace_id', '-created_at'],
            },
        ),
        migrations.RunSQL(
            sql=[
                "DROP TABLE IF EXISTS authtoken_token CASCADE",
                "DELETE FROM django_migrations WHERE app = 'authtoken'",
            ],
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
