"""Writes to the content domain. Each service validates, saves, and announces the change.

Announcements are signals sent inside the service's transaction (cms/signals.py), so a
listener's own writes (ingestion's pending chunks) commit or roll back with the content.

One module per entity; the public services are re-exported here, so callers write
`from cms import services` and `services.entry_create(...)`:

- `workspaces`: workspaces and their memberships (the last owner is kept);
- `content_types`: content types and their field schemas;
- `entries`: entries (status and data validated);
- `assets`: asset upload (size cap, MIME sniffing, text decoding) and delete;
- `api_keys`: workspace API keys (create, revoke, touch, authenticate);
- `synonyms`: synonym sets;
- `promotions`: promotions (editors' picks).
"""

from cms.services.workspaces import (
    workspace_create,
    membership_owner_kept_check,
    membership_workspaces_lock,
    membership_set,
    membership_delete_many,
    membership_delete,
)
from cms.services.content_types import content_type_create, content_type_update
from cms.services.entries import entry_create, entry_update, entry_delete
from cms.services.assets import (
    ASSET_READ_CHUNK_BYTES,
    asset_content_read,
    asset_content_check,
    asset_upload,
    asset_delete,
)
from cms.services.api_keys import (
    API_KEY_TOUCH_INTERVAL,
    api_key_create,
    api_key_revoke,
    api_key_touch,
    api_key_authenticate,
)
from cms.services.synonyms import (
    SYNONYM_SET_MAX_TERMS,
    SYNONYM_TERM_MAX_CHARS,
    synonym_set_check,
    synonym_set_create,
    synonym_set_update,
    synonym_set_delete,
)
from cms.services.promotions import (
    PROMOTION_REFUSALS,
    promotion_create,
    promotion_delete,
    promotion_move,
    promotion_phrase_checked,
    promotion_update,
)

__all__ = [
    "API_KEY_TOUCH_INTERVAL",
    "ASSET_READ_CHUNK_BYTES",
    "PROMOTION_REFUSALS",
    "SYNONYM_SET_MAX_TERMS",
    "SYNONYM_TERM_MAX_CHARS",
    "api_key_authenticate",
    "api_key_create",
    "api_key_revoke",
    "api_key_touch",
    "asset_content_check",
    "asset_content_read",
    "asset_delete",
    "asset_upload",
    "content_type_create",
    "content_type_update",
    "entry_create",
    "entry_delete",
    "entry_update",
    "membership_delete",
    "membership_delete_many",
    "membership_owner_kept_check",
    "membership_set",
    "membership_workspaces_lock",
    "promotion_create",
    "promotion_delete",
    "promotion_move",
    "promotion_phrase_checked",
    "promotion_update",
    "synonym_set_check",
    "synonym_set_create",
    "synonym_set_delete",
    "synonym_set_update",
    "workspace_create",
]
