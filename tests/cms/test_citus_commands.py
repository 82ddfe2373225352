"""The Citus commands' arguments and what they say, without a cluster (issue 49, item 7).

The commands' work against a real cluster is tests/citus/ (`pytest -m citus`, its own session).
"""

from __future__ import annotations

import inspect

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cms.management.commands import citus_rebalance


@pytest.mark.parametrize("timeout", ["nan", "NaN", "inf", "-inf", "0", "-5", "soon", ""])
def test_rebalance_refuses_a_timeout_that_is_not_a_finite_number_above_0(timeout):
    # "nan" waited forever: no monotonic time is ever past a NaN deadline. Refused while the
    # arguments are parsed, before the database is asked anything.
    with pytest.raises(CommandError, match="--timeout"):
        call_command("citus_rebalance", "--timeout", timeout)


def test_rebalance_takes_a_finite_timeout():
    assert citus_rebalance.positive_seconds("90") == 90.0
    assert citus_rebalance.positive_seconds("0.5") == 0.5


def test_rebalance_says_that_writes_wait_as_block_writes_makes_them():
    # It said "reads and writes go on meanwhile" while moving shards with block_writes.
    source = inspect.getsource(citus_rebalance)
    assert "shard_transfer_mode => 'block_writes'" in source
    doc = " ".join(citus_rebalance.__doc__.split())
    assert "writes to its workspaces wait" in doc and "reads and writes go on" not in doc
