"""The Citus cluster's nodes as /api/health shows them: each node, its role, and whether the
coordinator reaches it now."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError, connection


def citus_nodes_report() -> dict[str, Any]:
    """`ok` when every active worker answers the coordinator; `nodes`: name, port, role, active,
    whether it holds shards and whether it answered. One statement to each worker."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT nodename, nodeport, groupid, isactive, shouldhaveshards FROM pg_dist_node"
                           " WHERE noderole = 'primary' ORDER BY groupid, nodeid")
            nodes = cursor.fetchall()
            cursor.execute("SELECT nodename, nodeport, success FROM run_command_on_workers('SELECT 1')")
            answered = {(name, port): success for name, port, success in cursor.fetchall()}
    except DatabaseError:
        return {"ok": False, "error": "query_failed"}
    report = [
        {"name": name, "port": port, "role": "coordinator" if group == 0 else "worker", "active": active,
         "shards": has_shards, "reachable": True if group == 0 else bool(answered.get((name, port)))}
        for name, port, group, active, has_shards in nodes
    ]
    return {"ok": all(node["reachable"] for node in report if node["active"]), "nodes": report}
