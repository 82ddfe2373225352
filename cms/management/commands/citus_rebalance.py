"""Spread the shards over every worker after one is added: Citus's shard rebalancer, watched.

`citus_rebalance_start()` moves shard groups (a workspace's rows in every tenant table move
together) with logical replication, so reads and writes go on meanwhile; this waits for it
and prints what moved. `--plan` prints the moves and makes none. Refuses on plain PostgreSQL.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from cms.citus_layout import citus_installed


class Command(BaseCommand):
    help = "Rebalance the Citus shards over the workers (after citus_add_node); --plan shows the moves only."

    def add_arguments(self, parser):
        parser.add_argument("--plan", action="store_true", help="Print the planned moves and make none.")
        parser.add_argument("--timeout", type=float, default=3600.0, help="Seconds to wait for the moves.")

    def handle(self, *args, plan: bool = False, timeout: float = 3600.0, verbosity: int = 1, **options):
        if not citus_installed():
            raise CommandError("Citus is not installed in this database (no citus extension), so there is "
                               "nothing to rebalance: run this on a Citus coordinator.")
        with connection.cursor() as cursor:
            cursor.execute("SELECT table_name::text, shardid, sourcename, sourceport, targetname, targetport"
                           " FROM get_rebalance_table_shards_plan()")
            moves = cursor.fetchall()
            if plan or not moves:
                for table, shard, source, sport, target, tport in moves:
                    self.stdout.write(f"{table} shard {shard}: {source}:{sport} -> {target}:{tport}")
                if not moves:
                    self.stdout.write("The shards are balanced: nothing to move.")
                return
            # Shards move with logical replication by default; block_writes needs no replica identity.
            cursor.execute("SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')")
            job = cursor.fetchone()[0]
            deadline = time.monotonic() + timeout
            while True:
                cursor.execute("SELECT state::text FROM citus_rebalance_status() WHERE job_id = %s", [job])
                row = cursor.fetchone()
                state = row[0] if row else "finished"
                if state in ("finished", "failed", "cancelled"):
                    break
                if time.monotonic() > deadline:
                    raise CommandError(f"Rebalance job {job} still {state} after {timeout:.0f} s: it goes on; "
                                       "SELECT * FROM citus_rebalance_status() to follow it.")
                time.sleep(1)
        if state != "finished":
            raise CommandError(f"Rebalance job {job} {state}: SELECT * FROM citus_rebalance_status() says why.")
        if verbosity >= 1:
            self.stdout.write(f"Rebalanced: {len(moves)} shard moves (job {job}).")
