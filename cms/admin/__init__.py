"""The content app's admin; importing it registers every model admin, each module its own."""

from cms.admin import api_keys, content, entries, promotions  # noqa: F401 - each registers its model admins
