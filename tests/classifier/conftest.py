"""Fixtures for the knowledge-base (Django side) tests: experts, articles, and a helper to ingest cases."""

import itertools

import pytest

from classifier import kb, services
from classifier.features import FeatureSettings
from classifier.models import KnowledgeBase
from monitor.models import Article, Site

_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def _fresh_kb_cache():
    """Each test starts without a loaded rule tree (the stamp check would catch it anyway)."""
    kb.clear_cache()
    yield
    kb.clear_cache()


@pytest.fixture(autouse=True)
def _word_cases(request):
    """These tests are about rules on words: cases hold the article's words only (no phrases, no title, site or
    URL words); tests of the other conditions ask for ``news_features``."""
    names = request.fixturenames
    marked = any(m.name == "django_db" for m in request.node.iter_markers())
    if "news_features" in names or not (marked or "db" in names or "transactional_db" in names):
        yield
        return
    transactional = "transactional_db" in names or any(
        m.name == "django_db" and m.kwargs.get("transaction") for m in request.node.iter_markers()
    )
    request.getfixturevalue("transactional_db" if transactional else "db")
    # the row, not services.set_feature_settings: no version bump for tests that count versions
    KnowledgeBase.objects.update_or_create(
        pk=KnowledgeBase.SINGLETON_ID, defaults={"features": FeatureSettings(phrases=False, scopes=False).to_dict()}
    )
    kb.clear_cache()
    yield


@pytest.fixture
def news_features(db):
    """Cases built with the defaults: words, phrases and title/site/URL words."""
    return FeatureSettings()


@pytest.fixture
def expert(django_user_model):
    return django_user_model.objects.create_user("expert")


@pytest.fixture
def expert2(django_user_model):
    return django_user_model.objects.create_user("expert2")


@pytest.fixture
def site(db):
    return Site.objects.create(name="Daily", home_url="https://daily.example/")


@pytest.fixture
def make_case(site):
    """make_case("goal match ...") -> Case, ingested through services.ingest_case."""

    def make(words, url=None):
        n = next(_numbers)
        article = Article.objects.create(site=site, url=url or f"https://daily.example/a/{n}", title=f"a{n}")
        tokens = words.split() if isinstance(words, str) else list(words)
        return services.ingest_case(article, tokens)

    return make


@pytest.fixture
def folders(expert):
    """Sport, Sport/Football, Politics, Economy."""
    return {
        "sport": services.create_folder("Sport", expert),
        "football": services.create_folder("Sport/Football", expert),
        "politics": services.create_folder("Politics", expert),
        "economy": services.create_folder("Economy", expert),
    }


def stored_vs_inferred():
    """(stored, inferred) folder maps per case: stored = suggested+accepted rows, inferred = current KB.

    Used to check that what re-inference left in the database equals inferring every case from scratch.
    """
    from classifier.models import Case, Classification

    kb.clear_cache()  # load the tree from the database, not from this process's cache
    tree = kb.current().tree
    inferred = {}
    for pk, words in Case.objects.values_list("id", "keywords"):
        folders = {}
        for conclusion in tree.infer(frozenset(words)):
            folders.setdefault(conclusion.folder, conclusion.rule_id)
        inferred[pk] = folders
    stored = {pk: {} for pk in inferred}
    for case_id, folder_id, rule_id in Classification.objects.filter(state=Classification.State.SUGGESTED).values_list(
        "case_id", "folder_id", "rule_id"
    ):
        stored[case_id][folder_id] = rule_id
    return stored, inferred


def review_states_from_rows() -> dict[int, str]:
    """article id -> review state recomputed from its rows: pending if a row is suggested, else correction if
    a rejection waits for its rule, else reviewed if it has rows or an expert marked it reviewed with no
    folder, else unreviewed (articles without a case included)."""
    from classifier.models import Case, Classification, Correction

    states: dict[int, set[str]] = {pk: set() for pk in Article.objects.values_list("pk", flat=True)}
    for article_id in Case.objects.filter(no_folder_at__isnull=False).values_list("article_id", flat=True):
        states[article_id].add("no folder")
    for article_id, state in Classification.objects.filter(case__article__isnull=False).values_list(
        "case__article_id", "state"
    ):
        states[article_id].add(state)
    waiting = set(
        Correction.objects.filter(state=Correction.State.PENDING, case__article__isnull=False).values_list(
            "case__article_id", flat=True
        )
    )
    return {
        pk: "suggested"
        if "suggested" in rows
        else "correction"
        if pk in waiting
        else "reviewed"
        if rows
        else "unreviewed"
        for pk, rows in states.items()
    }


def assert_suggestions_match_inference():
    """Every suggested row is what the KB infers; every inferred folder has a row (any state); every
    article's stored review state is the one its rows give; every keyword's stored document frequency is
    its number of cases in the keyword index."""
    from classifier import frequencies
    from classifier.models import Classification

    assert frequencies.drift() == []

    assert dict(Article.objects.values_list("pk", "review_state")) == review_states_from_rows()

    stored, inferred = stored_vs_inferred()
    decided = set(
        Classification.objects.exclude(state=Classification.State.SUGGESTED).values_list("case_id", "folder_id")
    )
    for case_id, want in inferred.items():
        have = stored[case_id]
        for folder_id, rule_id in have.items():
            assert want.get(folder_id) == rule_id, (case_id, folder_id, "stale suggestion")
        for folder_id in want:
            assert folder_id in have or (case_id, folder_id) in decided, (case_id, folder_id, "missing")


@pytest.fixture
def check_kb():
    """check_kb(): assert the stored suggestions equal inferring every case from scratch."""
    return assert_suggestions_match_inference


@pytest.fixture
def sport_kb(folders, make_case, expert_user):
    """Two rules and three cases: a football cornerstone, a new article, and a politics article."""
    stone = make_case("goal match striker league")
    rule = services.commit_rule(stone, "new", expert_user, folder=folders["football"], conditions=["goal"])[0]
    new = make_case("goal match election vote")
    politics = make_case("election vote parliament")
    return {**folders, "stone": stone, "rule": rule, "new": new, "vote": politics}


def article_of(case):
    """The article of a stored case."""
    return Article.objects.get(pk=case.article_id)
