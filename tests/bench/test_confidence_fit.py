"""bench/confidence_fit.py's operating point: how many answerable fit queries a floor may refuse.

The floor is read so that each set's false "no good match" rate is within 5% with 95%
confidence. Checked against the exact binomial tail, computed here by hand: k refusals of n are
allowed exactly when k or fewer would happen with probability at most 5% if the true rate were
5% (the Clopper-Pearson bound's definition), and k + 1 are not."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def confidence_fit():
    spec = importlib.util.spec_from_file_location("confidence_fit", BENCH / "confidence_fit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def binomial_tail(refused: int, queries: int, rate: float) -> float:
    """P(at most `refused` of `queries` refused) when each is refused with `rate`."""
    return sum(math.comb(queries, i) * rate**i * (1 - rate) ** (queries - i) for i in range(refused + 1))


@pytest.mark.parametrize("queries", [59, 60, 300, 536, 1762, 1969])
def test_refusals_allowed_is_the_last_count_whose_bound_is_within_the_target(confidence_fit, queries):
    allowed = confidence_fit.refusals_allowed(queries, 0.95)
    assert allowed >= 0
    assert binomial_tail(allowed, queries, 0.05) <= 0.05 < binomial_tail(allowed + 1, queries, 0.05)


def test_too_few_queries_to_bound_allow_no_refusal_at_all(confidence_fit):
    # With 58 queries, even none refused leaves the rate's 95% upper bound over 5% (0.95^58 > 0.05).
    assert confidence_fit.refusals_allowed(58, 0.95) == -1


def test_the_fits_300_queries_allow_8_refusals_against_15_read_as_a_point(confidence_fit):
    assert confidence_fit.FLOOR_CONFIDENCE == 0.95
    assert confidence_fit.refusals_allowed(300, confidence_fit.FLOOR_CONFIDENCE) == 8
    assert confidence_fit.refusals_allowed(300, 0) == 15


def test_a_refit_keeps_what_the_product_reads_unless_another_wins_by_min_gain(confidence_fit):
    def scores(mean: float, nearest5: float) -> dict[str, dict[str, float]]:
        kind = {"sim": 0.40, "sim+passage": 0.85, "sim+bg-mean+passage": mean, "sim+bg-nearest5+passage": nearest5}
        return {"semantic": dict(kind), "hybrid": dict(kind)}

    current = "sim+bg-mean+passage"
    # E5's refit: nearest5 led by one CovidFAQ query of 300.
    assert confidence_fit.models_choose(scores(0.917, 0.920), current)["semantic"] == current
    assert confidence_fit.models_choose(scores(0.917, 0.920))["semantic"] == "sim+bg-nearest5+passage"
    assert confidence_fit.models_choose(scores(0.917, 0.970), current)["semantic"] == "sim+bg-nearest5+passage"
    # What the product reads is not taken where it gains too little over fewer features.
    assert confidence_fit.models_choose(scores(0.880, 0.870), current)["semantic"] == "sim+passage"
