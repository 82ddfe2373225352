"""The content app's admin; importing it registers every model admin (content.py registers the rest)."""

from cms.admin import content  # noqa: F401 - registers the model admins
