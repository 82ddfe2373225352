"""A workspace always keeps an owner (review item 6).

The services refuse to demote or delete a workspace's last owner, and deleting a user who is
one is refused too (cms.models.cascade_unless_last_owner). This constraint trigger is the
database's own guarantee, for every other writer (raw SQL, a queryset update): at commit, a
workspace that still exists and lost an owner row must have an owner left. Deferred to the
commit so that a transaction may demote one owner and promote another in either order, and
so that deleting a workspace (its memberships first, then the row) is allowed. It fires only
for rows that were owners, and its check is one probe of the (workspace, user) index.
"""

from django.conf import settings
from django.db import migrations, models

import cms.models

CREATE = """
CREATE FUNCTION cms_membership_owner_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM cms_workspace WHERE id = OLD.workspace_id)
       AND NOT EXISTS (SELECT 1 FROM cms_membership WHERE workspace_id = OLD.workspace_id AND role = 'owner') THEN
        RAISE EXCEPTION 'Workspace % would have no owner: a workspace always keeps an owner.', OLD.workspace_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER cms_membership_owner_kept
    AFTER UPDATE OR DELETE ON cms_membership
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW
    WHEN (OLD.role = 'owner')
    EXECUTE FUNCTION cms_membership_owner_kept();
"""

DROP = """
DROP TRIGGER IF EXISTS cms_membership_owner_kept ON cms_membership;
DROP FUNCTION IF EXISTS cms_membership_owner_kept();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('cms', '0005_entry_search_grams_per_workspace'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='membership',
            name='user',
            field=models.ForeignKey(on_delete=cms.models.cascade_unless_last_owner, related_name='memberships',
                                    to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunSQL(CREATE, DROP),
    ]
