"""URLs of the ingestion status pages, served inside the admin (login and staff required)."""

from django.contrib import admin
from django.urls import path

from ingestion.admin import entries as admin_entries, views as admin_views

urlpatterns = [
    path("", admin.site.admin_view(admin_views.status_index), name="ingestion_status_index"),
    path("<slug:slug>/", admin.site.admin_view(admin_views.status_detail), name="ingestion_status"),
    path("<slug:slug>/entries/<int:entry_id>/chunks/", admin.site.admin_view(admin_entries.entry_chunks_fragment),
         name="ingestion_entry_chunks"),
]
