"""Spread the shards over every worker after one is added: Citus's shard rebalancer, watched.

`citus_rebalance_start()` moves shard groups (a workspace's rows in every tenant table move
together) with `block_writes`: while a group is copied, reads go on but writes to its
workspaces wait until it is in place (seconds to minutes, by its size); other workspaces are
not held. Citus's logical mode (`force_logical`) would let writes go on too, but needs
`wal_level = logical` on every node, which a Citus cluster does not have by default. This
waits for the job (at most `--timeout` seconds, a finite number above 0) and prints what
moved. `--plan` prints the moves and makes none. Refuses on plain PostgreSQL.
"""

from __future__ import annotations

import argparse
import math
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from cms.citus_layout import citus_installed


def positive_seconds(text: str) -> float:
    """argparse's type for a wait: a finite number of seconds above 0 ("nan" waited forever:
    no time is ever past it)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of seconds above 0")
    return seconds


class Command(BaseCommand):
    help = "Rebalance the Citus shards over the workers (after citus_add_node); --plan shows the moves only."

    def add_arguments(self, parser):
        parser.add_argument("--plan", action="store_true", help="Print the planned moves and make none.")
        parser.add_argument("--timeout", type=positive_seconds, default=3600.0,
                            help="Seconds to wait for the moves (a finite number above 0; the job goes on after).")

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
            # block_writes: writes to a moving group's workspaces wait (the module docstring says why).
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
