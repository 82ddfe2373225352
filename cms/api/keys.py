"""ApiKeyRejected, re-exported for search.interfaces.mcp.server; the keys themselves are cms/api_keys.py.

The key format and check moved out of cms/api/ because cms.services uses them and cms.api
uses cms.services (a cycle). Delete this module once search/interfaces/mcp/server.py imports
cms.api_keys (issue 50: another change owns that module).
"""

from cms.api_keys import ApiKeyRejected  # noqa: F401
