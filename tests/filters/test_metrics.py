"""Phrase-level metrics of Experiment 1 and the datasets' shingle metric."""

import pytest

from filters.metrics import Contingency, aggregate_scores, contingency, shingle_scores


def test_contingency_table_and_measures():
    labels = [True, True, True, False, False, False, False, True]
    kept = [True, True, False, True, False, False, False, True]
    c = contingency(labels, kept)
    assert (c.a, c.b, c.c, c.d) == (3, 1, 1, 3)
    assert c.recall == pytest.approx(3 / 4)
    assert c.precision == pytest.approx(3 / 4)
    assert c.fallout == pytest.approx(1 / 4)
    assert c.accuracy == pytest.approx(6 / 8)
    assert c.error == pytest.approx(2 / 8)
    assert (c + c).n == 16


def test_undefined_measures_are_none():
    c = Contingency(0, 0, 0, 5)  # no core phrases, nothing kept
    assert c.recall is None and c.precision is None
    assert c.fallout == 0.0 and c.accuracy == 1.0
    empty = Contingency()
    assert empty.accuracy is None and empty.error is None and empty.fallout is None
    assert set(empty.as_dict()) >= {"a", "b", "c", "d", "recall", "precision", "fallout", "accuracy", "error"}


def test_contingency_requires_parallel_lists():
    with pytest.raises(ValueError, match="parallel"):
        contingency([True], [True, False])


def test_shingle_metric_as_in_the_datasets_readme():
    gold = "one two three four five"
    assert shingle_scores(gold, gold).precision == 1.0
    s = shingle_scores("one two three four five six", gold)  # 3 shingles, 2 right
    assert s.precision == pytest.approx(2 / 3) and s.recall == 1.0
    short = shingle_scores("a b", "a b")  # 1-3 tokens: one shorter shingle
    assert short.precision == 1.0 and short.recall == 1.0
    empty = shingle_scores("", gold)
    assert empty.precision is None and empty.recall == 0.0
    agg = aggregate_scores([s, empty])
    assert agg["precision"] == pytest.approx(2 / 3)  # the empty output does not count for precision
    assert agg["recall"] == pytest.approx(0.5)
    assert agg["f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
