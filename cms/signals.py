"""Signals the content services send, inside their transaction, so other apps can follow.

`cms`'s domain modules import neither `search` nor `ingestion` (only the root URLconf,
`config/urls.py`, names their URLs); those apps listen here. Receivers must only
call a service of their own app (see ingestion/receivers.py).
"""

from django.dispatch import Signal

# sender=Entry, entry=<Entry>, created=bool
entry_saved = Signal()
# sender=Entry, entry=<Entry> (still readable; its row is deleted after the signal)
entry_deleted = Signal()
# sender=Asset, asset=<Asset>, created=bool
asset_saved = Signal()
# sender=Asset, asset=<Asset>
asset_deleted = Signal()
# sender=ContentType, content_type=<ContentType>, enabled=bool  (the flag's new value)
semantic_search_toggled = Signal()
