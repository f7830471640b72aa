"""Fixtures for the search tests: articles stored as processing stores them, then indexed."""

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from classifier.models import Case, Classification, Folder
from monitor.models import Article, Site
from search import services
from tests.articles import create_article
from tests.classifier.conftest import _fresh_kb_cache  # noqa: F401  (autouse)
from tests.monitor.conftest import _forget_robots_rows, demo, fast_env  # noqa: F401 - fixtures, by name

_numbers = itertools.count(1)


@pytest.fixture
def site(db):
    return Site.objects.create(name="Daily", home_url="https://daily.example/")


@pytest.fixture
def other_site(db):
    return Site.objects.create(name="Weekly", home_url="https://weekly.example/")


@pytest.fixture
def make_article(site):
    """make_article(title, text, keywords=(), days_ago=0, site=..., state="processed") -> indexed Article."""

    def make(title, text="", keywords=(), days_ago=0, site=site, state=Article.State.PROCESSED, **extra):
        n = next(_numbers)
        article = create_article(
            site=site,
            url=f"{site.home_url}a/{n}",
            title=title,
            core_text=text,
            keywords=[[k, 1.0] for k in keywords],
            state=state,
            **extra,
        )
        if days_ago:
            Article.objects.filter(pk=article.pk).update(collected_at=timezone.now() - timedelta(days=days_ago))
            article.refresh_from_db()
        services.index_article(article)
        return article

    return make


@pytest.fixture
def classify(db):
    """classify(article, folder_path, state) -> Classification (the folder made with its parents)."""

    def make(article, path, state=Classification.State.ACCEPTED):
        parent = None
        for depth, name in enumerate(path.split("/")):
            parent, _ = Folder.objects.get_or_create(
                name=name, parent=parent, defaults={"path": "/".join(path.split("/")[: depth + 1])}
            )
        case, _ = Case.objects.get_or_create(article=article)
        return Classification.objects.create(case=case, folder=parent, state=state)

    return make


def ids(qs):
    return sorted(qs.values_list("pk", flat=True))
