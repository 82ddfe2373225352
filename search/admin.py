"""Django's admin slot: the search admin lives in search/interfaces/admin/. It also offers the
insights' popular queries to the promotion form's phrase picker: with the admin, so a process
that starts without it (`manage.py mcp_serve`, config/admin_site.py) imports no admin module."""

from cms.admin.promotions import popular_queries_register
from search.insights.insights import promotion_phrase_suggestions
from search.interfaces.admin import entries  # noqa: F401 - registers the search-aware entry admin

popular_queries_register(promotion_phrase_suggestions)
