"""Django's admin slot: the search admin lives in search/interfaces/admin/."""

from search.interfaces.admin import entries  # noqa: F401 - registers the search-aware entry admin
