"""A small workspace for the dashboards: two sites, articles on several days, rules made through the services,
suggestions accepted and rejected through the services (their decision times then moved to other days), a rule
that never fired and a stopping rule."""

from datetime import timedelta

import pytest
from django.utils import timezone

from classifier import services
from classifier.filtering import day_start
from classifier.models import Classification, Folder, Rule
from monitor.models import Article, Site
from tests.classifier.conftest import _fresh_kb_cache, _word_cases  # noqa: F401  (autouse)


@pytest.fixture
def expert(make_expert):
    return make_expert("ada")


@pytest.fixture
def outsider(django_user_model):
    """Signed in, but no expert."""
    return django_user_model.objects.create_user("olive", password="pw")  # noqa: S106


def at(days_ago: int, hour: int = 12):
    """A moment ``days_ago`` days before today, at ``hour`` o'clock in the server's time zone."""
    return day_start(timezone.localdate() - timedelta(days=days_ago)) + timedelta(hours=hour)


def make_article(site, slug, days_ago, tokens=None, state=Article.State.PROCESSED):
    article = Article.objects.create(site=site, url=f"{site.home_url}{slug}", title=slug, state=state)
    Article.objects.filter(pk=article.pk).update(collected_at=at(days_ago))  # collected_at is auto_now_add
    if tokens is not None:
        services.ingest_case(article, tokens)
    return article


@pytest.fixture
def board(db, expert):
    """Returns the articles by slug, the folders, the rules and the sites; the expected numbers are in the tests."""
    alpha = Site.objects.create(name="Alpha News", home_url="https://alpha.example/")
    beta = Site.objects.create(name="Beta Times", home_url="https://beta.example/")
    diabetes = services.create_folder("Health/Diabetes", expert)
    exercise = services.create_folder("Health/Exercise", expert)
    sport = services.create_folder("Sport", expert)
    a = {
        "a1": make_article(alpha, "a1", 0, ["diabetes", "insulin"]),
        "a2": make_article(alpha, "a2", 0, ["diabetes", "walking"]),
        "a3": make_article(alpha, "a3", 0, ["football", "goal"]),
        "a4": make_article(alpha, "a4", 2, ["diabetes", "football"]),
        "old": make_article(alpha, "old", 40, ["diabetes", "old"]),  # outside the 30 days
        "b1": make_article(beta, "b1", 1, ["diabetes", "diet"]),
        "b2": make_article(beta, "b2", 1, ["weather"]),
        "b3": make_article(beta, "b3", 0, None, state=Article.State.FAILED),
    }
    cases = {slug: article.case for slug, article in a.items() if slug != "b3"}
    # rule 1 on a1 (accepted there, suggested on a2, a4, b1, old); rule 2 on a3 (suggested on a4)
    r1 = services.commit_rule(cases["a1"], "new", expert, folder=diabetes, conditions=["diabetes"])[0]
    r2 = services.commit_rule(cases["a3"], "new", expert, folder=sport, conditions=["football"])[0]
    services.accept(cases["a2"], expert)
    services.accept(cases["a4"], expert, [diabetes])
    services.reject(cases["a4"], sport, expert)
    services.reject(cases["b1"], diabetes, expert)
    # the decisions' days: a1 two days ago, a4 yesterday, a2 and a3 today
    for slug, days_ago in (("a1", 2), ("a4", 1)):
        Classification.objects.filter(case=cases[slug], state=Classification.State.ACCEPTED).update(
            decided_at=at(days_ago)
        )
    # as an imported knowledge base has them: a rule no article fired, and a stopping rule (it concludes nothing)
    never = Rule.objects.create(folder=exercise, conditions=["marathon"], created_by=expert)
    stop = Rule.objects.create(parent=r1, folder=None, conditions=["walking"], created_by=expert)
    return {
        "articles": a,
        "sites": (alpha, beta),
        "folders": {f.path: f for f in Folder.objects.all()},
        "rules": {"diabetes": r1, "football": r2, "never": never, "stop": stop},
    }
