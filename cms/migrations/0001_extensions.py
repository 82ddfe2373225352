"""The PostgreSQL extensions search needs: pgvector (vectors, HNSW) and pg_trgm (trigram GIN)."""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations
from pgvector.django import VectorExtension


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [VectorExtension(), TrigramExtension()]
