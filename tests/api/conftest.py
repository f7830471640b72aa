"""Fixtures for the API tests: a user of every role, a small knowledge base with a suggestion pending, clients.

The knowledge base is built through the classifier's services (create_folder, ingest_case, commit_rule), as the
workspace builds it; cases hold the articles' words only, like the classifier's tests.
"""

import itertools

import pytest
from rest_framework.test import APIClient

from api import services as api_services
from classifier import services
from classifier.kinds import RuleKind
from foundation.roles import EXPERTS, SITE_ADMINISTRATORS, ensure_groups
from monitor.models import Article, Site
from tests.articles import create_article
from tests.classifier.conftest import _fresh_kb_cache, _word_cases  # noqa: F401  (autouse)

_numbers = itertools.count(1)

ROLES = ["anonymous", "no_role", "expert", "site_admin", "superuser"]


@pytest.fixture
def groups(db):
    return ensure_groups()


@pytest.fixture
def users(django_user_model, groups):
    """A user of each role (anonymous is None)."""
    no_role = django_user_model.objects.create_user("reader", password="pw")  # noqa: S106
    expert = django_user_model.objects.create_user("expert", password="pw")  # noqa: S106
    expert.groups.add(groups[EXPERTS])
    site_admin = django_user_model.objects.create_user("siteadmin", password="pw")  # noqa: S106
    site_admin.groups.add(groups[SITE_ADMINISTRATORS])
    superuser = django_user_model.objects.create_superuser("root", password="pw")  # noqa: S106
    return {"anonymous": None, "no_role": no_role, "expert": expert, "site_admin": site_admin, "superuser": superuser}


def client_for(user) -> APIClient:
    """An API client signed in with a real token of the user (the way scripts call the API); anonymous: none."""
    client = APIClient()
    if user is not None:
        _, token = api_services.issue_token(user, f"test {next(_numbers)}")
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.fixture
def api_as(users):
    """api_as("expert") -> an APIClient authenticated as that role's user by token."""
    return lambda role: client_for(users[role])


@pytest.fixture
def site(db):
    return Site.objects.create(name="Daily", home_url="https://daily.example/")


@pytest.fixture
def other_site(db):
    return Site.objects.create(name="Weekly", home_url="https://weekly.example/")


def make_article(site, words: str, title: str = "", **fields) -> Article:
    n = next(_numbers)
    article = create_article(
        site=site,
        url=f"{site.home_url}a/{n}",
        title=title or f"article {n}",
        core_text=words,
        state=Article.State.PROCESSED,
        **fields,
    )
    services.ingest_case(article, words.split())
    return article


@pytest.fixture
def kb(users, site):
    """Folders Health, Health/Measles, Internal (private); a rule "measles" -> Health/Measles made on a cornerstone
    article (accepted), and a second article with the suggestion pending."""
    expert = users["expert"]
    health = services.create_folder("Health", expert)
    measles = services.create_folder("Health/Measles", expert)
    internal = services.create_folder("Internal", expert, public=False)
    cornerstone = make_article(site, "measles outbreak in the north")
    (rule,) = services.commit_rule(cornerstone.case, RuleKind.NEW, expert, folder=measles, conditions=["measles"])
    pending = make_article(site, "measles cases rise again", keywords=[["measles", 0.9], ["cases", 0.4]])
    return {
        "health": health,
        "measles": measles,
        "internal": internal,
        "rule": rule,
        "cornerstone": cornerstone,
        "pending": pending,
    }
