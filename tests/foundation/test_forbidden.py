"""Users without the experts' role: a styled 403 page that says why and what they can do, a landing page of their
own after login (not the inbox's 403), and a 403 logged as a one-line warning, not two tracebacks. (Live: a site
administrator got a bare "403 Forbidden" after login, and one login logged 42 tracebacks.)"""

import logging

import pytest
from django.urls import reverse

from foundation.roles import SITE_ADMINISTRATORS, ensure_groups

pytestmark = pytest.mark.django_db
PASSWORD = "right-horse-battery"  # noqa: S105 - test login


@pytest.fixture
def site_admin(django_user_model):
    user = django_user_model.objects.create_user("sam", password=PASSWORD, is_staff=True)
    user.groups.add(ensure_groups()[SITE_ADMINISTRATORS])
    return user


@pytest.fixture
def no_role(django_user_model):
    return django_user_model.objects.create_user("nora", password=PASSWORD)


def login(client, username, next_url=None):
    data = {"username": username, "password": PASSWORD}
    if next_url is not None:
        data["next"] = next_url
    return client.post(reverse("login"), data)


def test_the_403_page_says_why_and_offers_the_admin_and_log_out(client, site_admin):
    client.force_login(site_admin)
    response = client.get(reverse("classifier:inbox"))
    assert response.status_code == 403
    page = response.content.decode()
    assert '<header class="topbar">' in page  # the app's base template
    assert "This page is for experts." in page
    assert f'href="{reverse("admin:index")}"' in page
    assert f'action="{reverse("logout")}"' in page
    assert f'href="{reverse("classifier:folders")}"' not in page  # no workspace link that would refuse them too


def test_the_403_page_of_a_user_with_no_role_offers_log_out_and_the_feeds(client, no_role):
    client.force_login(no_role)
    page = client.get(reverse("classifier:folders")).content.decode()
    assert "This page is for experts." in page
    assert f'action="{reverse("logout")}"' in page
    assert f'href="{reverse("feeds:list")}"' in page
    assert f'href="{reverse("admin:index")}"' not in page


@pytest.mark.parametrize("next_url", [None, "/"])
def test_after_login_each_role_lands_where_it_can_work(client, site_admin, no_role, make_expert, next_url):
    expert = make_expert("ada")
    expert.set_password(PASSWORD)
    expert.save()
    assert login(client, "sam", next_url)["Location"] == reverse("admin:index")
    client.logout()
    assert login(client, "nora", next_url)["Location"] == reverse("feeds:list")
    client.logout()
    assert login(client, "ada", next_url)["Location"] == "/"


def test_a_next_page_other_than_the_inbox_is_kept(client, site_admin):
    assert login(client, "sam", "/admin/monitor/site/")["Location"] == "/admin/monitor/site/"


def handlers_that_print(record: logging.LogRecord) -> list[logging.Handler]:
    """The project's handlers that emit this record, as Logger.callHandlers walks them (pytest's own left out)."""
    found = []
    logger: logging.Logger | None = logging.getLogger(record.name)
    while logger is not None:
        for handler in logger.handlers:
            if type(handler).__module__.startswith("_pytest"):
                continue
            if record.levelno >= handler.level and handler.filter(record):
                found.append(handler)
        logger = logger.parent if logger.propagate else None
    return found


def test_a_403_is_one_warning_line_without_traceback(client, site_admin, settings, caplog):
    settings.DEBUG = True  # Django's own console handler prints only then: it printed every record a second time
    client.force_login(site_admin)
    with caplog.at_level(logging.INFO):
        assert client.get(reverse("classifier:inbox")).status_code == 403
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.WARNING
    assert record.getMessage() == "Forbidden (Permission denied): /"
    assert record.exc_info is None  # the traceback was printed with it
    assert len(handlers_that_print(record)) == 1
