"""The entry admin in three parts: its form (form.py), the panels other apps add (panels.py) and EntryAdmin (admin.py).

Importing it registers EntryAdmin. The names other modules use are re-exported here.
"""

from cms.admin.entries.admin import ContentTypeListFilter, EntryAdmin
from cms.admin.entries.form import EntrySchemaForm, entry_form_class
from cms.admin.entries.panels import ENTRY_PANELS, EntryPanel, entry_panel_register

__all__ = [
    "ENTRY_PANELS",
    "ContentTypeListFilter",
    "EntryAdmin",
    "EntryPanel",
    "EntrySchemaForm",
    "entry_form_class",
    "entry_panel_register",
]
