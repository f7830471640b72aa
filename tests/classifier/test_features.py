"""Conditions for news (classifier/features.py): phrases, title/site/URL scopes, Snowball stemming."""

import pytest

from classifier.engine import Rule, RuleTree
from classifier.features import FeatureSettings, case_features, condition, describe, kind_of

TOKENS = ["prime", "minister", "visits", "diabetics", "clinic", "minister"]
URL = "https://www.example-news.co.uk/health/diabetes/clinic-visit-123"
TITLE = "Prime Minister visits a diabetes clinic"


def features(**settings) -> frozenset[str]:
    return frozenset(case_features(TOKENS, title=TITLE, url=URL, settings=FeatureSettings(**settings)))


def test_words_phrases_and_scopes_of_a_case():
    f = features()
    assert {"prime", "minister", "visits", "diabetics", "clinic"} <= f
    assert {"prime minister", "minister visits", "diabetics clinic"} <= f
    assert "clinic minister" in f and "minister minister" not in f
    assert {"title:prime", "title:diabetes", "title:clinic"} <= f and "title:a" not in f
    assert "site:example-news.co.uk" in f
    assert {"url:health", "url:diabetes", "url:clinic", "url:visit"} <= f


def test_phrases_and_scopes_can_be_switched_off():
    f = features(phrases=False, scopes=False)
    assert f == frozenset(TOKENS)


def test_stemming_lets_a_rule_on_diabetes_fire_on_diabetics():
    plain, stemmed = features(), features(stemming="english")
    on_diabetes = RuleTree([Rule(1, None, 7, frozenset([condition("diabetes")]))])
    assert on_diabetes.folders(plain) == set()
    stemmed_rule = RuleTree([Rule(1, None, 7, frozenset([condition("diabetes", FeatureSettings(stemming="english"))]))])
    assert stemmed_rule.folders(stemmed) == {7}
    assert "prime minist" in stemmed and "title:diabet" in stemmed


def test_each_condition_kind_fires_through_the_engine():
    case = features()
    for typed, fires in [
        ("Prime Minister", True),
        ("minister prime", False),  # order matters in a phrase
        ("title: Diabetes", True),
        ("title: diabetics", False),  # the title says "diabetes"
        ("site: www.example-news.co.uk", True),
        ("site: other.org", False),
        ("url: health", True),
        ("url: sport", False),
    ]:
        tree = RuleTree([Rule(1, None, 3, frozenset([condition(typed)]))])
        assert (tree.folders(case) == {3}) is fires, typed


def test_typed_conditions_are_checked():
    with pytest.raises(ValueError, match="holds no word"):
        condition("  ")
    with pytest.raises(ValueError, match="one word"):
        condition("title: two words")
    with pytest.raises(ValueError, match="two words"):
        condition("three words here")
    with pytest.raises(ValueError, match="unknown stemming"):
        FeatureSettings(stemming="klingon")


def test_conditions_described_by_kind():
    assert [kind_of(c) for c in ("word", "two words", "title:x", "site:a.org", "url:y")] == [
        "word", "phrase", "title", "site", "url",
    ]  # fmt: skip
    assert describe("title:measles") == 'title has "measles"'
    assert describe("site:bbc.co.uk") == "site is bbc.co.uk"
    assert describe("url:health") == 'URL path has "health"'
    assert describe("prime minister") == '"prime minister"'


def test_settings_round_trip_and_refuse_unknown_keys():
    s = FeatureSettings(stemming="english", phrases=False)
    assert FeatureSettings.from_dict(s.to_dict()) == s
    with pytest.raises(ValueError, match="unknown feature setting"):
        FeatureSettings.from_dict({"stem": "english"})
