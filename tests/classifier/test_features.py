"""Conditions for news (classifier/features.py): phrases, title/site/URL scopes, Snowball stemming."""

import pytest

from classifier.engine import Rule, RuleTree
from classifier.features import FeatureSettings, case_features, condition, describe, kind_of, proper_names

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


# --------------------------------------------------------------------------- through the services (database)


@pytest.fixture
def news_site(db):
    from monitor.models import Site

    return Site.objects.create(name="News", home_url="https://www.news.example/")


def _article(site, n, title, path):
    from monitor.models import Article

    return Article.objects.create(site=site, url=f"https://www.news.example/{path}/{n}", title=title)


@pytest.mark.django_db
def test_each_condition_kind_as_a_rule_through_the_services(news_features, news_site, expert):
    from classifier import services

    politics = services.create_folder("Politics", expert)
    case = services.ingest_case(
        _article(news_site, 1, "Prime Minister visits Leeds", "politics"), ["prime", "minister", "visits", "leeds"]
    )
    assert {"prime minister", "title:leeds", "site:news.example", "url:politics"} <= set(case.keywords)
    other = services.ingest_case(
        _article(news_site, 2, "Minister for sport", "sport"), ["minister", "prime", "time"]
    )  # the same words, not the phrase, another title and path
    for feature in ("prime minister", "title:leeds", "url:politics"):
        services.commit_rule(case, "new", expert, folder=politics, conditions=[feature], accepted_cornerstones=[])
        assert {c.folder for c in services.infer(case)} == {politics.pk}
        assert services.infer(other) == [], feature
        services.undo_last_rule(expert)
    services.commit_rule(case, "new", expert, folder=politics, conditions=["site:news.example"])
    assert {c.folder for c in services.infer(other)} == {politics.pk}, "the whole site"


@pytest.mark.django_db
def test_changing_the_feature_settings_rebuilds_cases_and_is_refused_when_rules_would_change_meaning(
    news_features, news_site, expert
):
    from django.core.exceptions import ValidationError

    from classifier import kb, services
    from classifier.models import AuditEntry, Case

    article = _article(news_site, 1, "Diabetics", "health")
    from processing.models import ArticleContent

    tokens = ["diabetics", "clinic"]  # what processing stores; rebuilding starts from it
    ArticleContent.objects.create(article=article, tokens=tokens)
    case = services.ingest_case(article, tokens)
    assert services.set_feature_settings(FeatureSettings(stemming="english")) == 1
    keywords = set(Case.objects.get(pk=case.pk).keywords)
    assert {"diabet", "diabet clinic", "title:diabet"} <= keywords and "diabetics" not in keywords
    assert AuditEntry.objects.filter(action="kb.features").exists()
    health = services.create_folder("Health", expert)
    services.commit_rule(Case.objects.get(pk=case.pk), "new", expert, folder=health, conditions=["diabet clinic"])
    with pytest.raises(ValidationError, match="stemming"):
        services.set_feature_settings(FeatureSettings())
    with pytest.raises(ValidationError, match="phrase"):
        services.set_feature_settings(FeatureSettings(stemming="english", phrases=False))
    services.set_feature_settings(FeatureSettings(stemming="english", scopes=False))  # no rule uses a scope
    assert kb.current().features == FeatureSettings(stemming="english", scopes=False)
    assert "title:diabet" in Case.objects.get(pk=case.pk).keywords, "a cornerstone case keeps its keywords"


@pytest.mark.django_db
def test_the_kb_features_command_shows_and_changes_the_settings(news_features, capsys):
    from django.core.management import CommandError, call_command

    from classifier import kb

    call_command("kb_features")
    assert "stemming: none; phrases: on; title/site/URL words: on" in capsys.readouterr().out
    call_command("kb_features", "--stemming", "english", "--no-scopes")
    assert "stemming: english; phrases: on; title/site/URL words: off" in capsys.readouterr().out
    assert kb.current().features == FeatureSettings(stemming="english", scopes=False)
    with pytest.raises(CommandError, match="no user"):
        call_command("kb_features", "--phrases", "--user", "nobody")


@pytest.mark.django_db
def test_the_rule_page_offers_phrases_and_scoped_words_in_words(news_features, news_site, ec):
    from django.urls import reverse

    from classifier import services

    article = _article(news_site, 1, "Prime Minister visits Leeds", "politics")
    services.ingest_case(article, ["prime", "minister", "visits", "leeds"])
    folder = services.create_folder("Politics", None)
    response = ec.get(
        reverse("classifier:rule", args=[article.pk]), {"kind": "new", "folder": folder.pk, "c": "title:leeds"}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert 'value="title:leeds" checked' in page and "title has &quot;leeds&quot;" in page
    assert 'value="prime minister"' in page and "&quot;prime minister&quot;" in page
    assert 'value="site:news.example"' in page and "site is news.example" in page
    assert 'value="url:politics"' in page and "URL path has &quot;politics&quot;" in page


@pytest.mark.django_db
def test_a_case_ingested_by_a_process_that_missed_a_change_of_features_gets_the_new_features(news_site):
    """Ingestion builds the keywords with the features of the snapshot its process holds, and reads the knowledge
    base's stamp with the case's INSERT: when another process changed the features meanwhile, the case's
    keywords and its keyword index are built again with the new ones."""
    from classifier import kb, services
    from classifier.models import Case, CaseKeyword

    held = kb.current()  # this process's snapshot: default features
    services.set_feature_settings(FeatureSettings(stemming="english"))  # "another process" changes them
    kb._cache = held  # ... and this process has not seen the change
    case = services.ingest_case(_article(news_site, 1, "Diabetics", "health"), ["diabetics", "clinic"])
    keywords = set(Case.objects.get(pk=case.pk).keywords)
    assert {"diabet", "diabet clinic", "title:diabet"} <= keywords and "diabetics" not in keywords
    assert set(CaseKeyword.objects.filter(case=case).values_list("keyword", flat=True)) == keywords
    assert kb.cached().features == FeatureSettings(stemming="english")


def test_proper_names_are_the_words_written_capitalised_inside_sentences_and_never_lower_case():
    text = (
        "Clinics open in Elmstead. Elmstead and “Oakley” get nurses; diabetes clinics grow.\n"
        "Diabetes nurses said so on Monday. The NHS agreed: Monday it is."
    )
    # Clinics and Diabetes only open sentences (and are written lower case too); NHS and Monday are names
    assert proper_names(text) == {"elmstead", "oakley", "nhs", "monday"}
    assert proper_names("Walking in Riverside", FeatureSettings(stemming="english")) == {"riversid"}
    assert proper_names("") == frozenset()


def test_a_name_only_modifying_a_compound_is_none_and_a_word_only_bound_to_a_name_is_part_of_it():
    # a live trial: "Mediterranean" only ever modifies a compound ("Mediterranean-style"): it says what kind of
    # diet, not where the story is set, so it is no name, and the suggested rule no longer gives it up for "style"
    diet = "Mediterranean-style eating\nWomen who ate a Mediterranean-style diet had less heart disease."
    assert proper_names(diet) == frozenset()
    # a name written on its own too is one; a word the text writes only joined to it by a hyphen is part of it
    # ("Elmstead-based" -> based), and gives way with it; a word written on its own as well is not
    town = "Nurses in Elmstead run it. The Elmstead-based clinic is Elmstead-run; the clinic was run well."
    assert proper_names(town) == {"elmstead", "based"}


def test_a_name_joined_to_another_name_by_a_hyphen_is_still_a_name():
    # review of the compounds rule: only a compound whose other parts are lower case ("Mediterranean-style") says
    # what kind of thing a story is about; a name made of names ("Jean-Luc", "Coca-Cola", "Stratford-upon-Avon")
    # is a person, a firm or a place, each of its capitalised parts a name as before the rule
    text = (
        "Talks went on. Then Jean-Luc Picard met the Coca-Cola board in Winston-Salem and then in Stratford-upon-Avon, "
        "where the Austria-Hungary exhibition and a COVID-19 clinic opened."
    )
    names = proper_names(text)
    assert {"jean", "luc", "coca", "cola", "winston", "salem", "stratford", "avon", "austria", "hungary"} <= names
    assert "covid" in names
    assert proper_names("It began. A Mediterranean-style diet and a Covid-related death.") == frozenset()


def test_a_place_something_is_based_or_born_in_is_a_name():
    # review: "a London-based firm" names where the story is set as surely as "a firm in London"; written only so
    # (BBC News 2004-05: New York-, California-, Brussels-, Seattle-, UK-based, Uruguayan-born, London-listed),
    # the place was no name and the suggested rule could lead with it
    text = "Shares rose. The London-based firm, a Seattle-based rival and their Uruguayan-born chief met."
    assert {"london", "seattle", "uruguayan"} <= proper_names(text)
    diet = "It began. A Mediterranean-style diet helps, the London-based team said."
    assert "mediterranean" not in proper_names(diet) and "london" in proper_names(diet)
