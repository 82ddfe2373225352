"""The ingestion admin; importing it registers the content type and entry panels."""

from ingestion.admin import content_types  # noqa: F401 - registers the model admins
