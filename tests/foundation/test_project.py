"""The project itself: system checks, migrations in sync, the bootstrap behind `make run`, production settings."""

import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django_celery_beat.models import PeriodicTask

from classifier.models import Folder
from demo.articles import TOPICS
from demo.sites import DEMO_SITES
from foundation import roles
from monitor.models import Site

ROOT = Path(__file__).resolve().parents[2]


def test_system_checks_pass():
    out = StringIO()
    call_command("check", fail_level="WARNING", stdout=out)
    assert "no issues" in out.getvalue()


@pytest.mark.django_db
def test_models_and_migrations_are_in_sync():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_bootstrap_is_idempotent():
    for _ in range(2):
        out = StringIO()
        call_command("bootstrap", "--demo", stdout=out)
        assert "Demo login: demo / demo-wims  (a superuser: expert and site administrator)" in out.getvalue()
    assert Site.objects.count() == len(DEMO_SITES) == 3
    assert sorted(Site.objects.values_list("name", flat=True)) == sorted(s.name for s in DEMO_SITES)
    assert set(Site.objects.values_list("poll_interval", flat=True)) == {60}, "new articles within two minutes"
    user = get_user_model().objects.get(username="demo")
    assert user.check_password("demo-wims") and user.is_staff
    assert user.email == "demo@example.org", "a newcomer's alerts reach var/mail/ without setting an address"
    assert roles.is_expert(user) and roles.is_site_administrator(user)
    assert Group.objects.filter(name__in=[roles.EXPERTS, roles.SITE_ADMINISTRATORS]).count() == 2
    assert not PeriodicTask.objects.exists(), "the beat writes the schedule (tests/foundation/test_beat_schedule.py)"
    assert Folder.objects.filter(path="Health/Diabetes").count() == 1
    assert Folder.objects.filter(parent__path="Health").count() == len(TOPICS)


@pytest.mark.django_db
def test_bootstrap_keeps_what_an_administrator_changed():
    call_command("bootstrap", "--demo", stdout=StringIO())
    site = Site.objects.get(name="Wellbeing Times")
    site.active = False
    site.save()
    user = get_user_model().objects.get(username="demo")
    user.set_password("changed-by-the-user")
    user.email = "me@example.net"
    user.save()
    call_command("bootstrap", "--demo", stdout=StringIO())
    assert Site.objects.get(pk=site.pk).active is False
    user = get_user_model().objects.get(username="demo")
    assert user.check_password("changed-by-the-user") and user.email == "me@example.net"


@pytest.mark.django_db
def test_bootstrap_without_demo_creates_no_login_and_no_site():
    out = StringIO()
    call_command("bootstrap", stdout=out)
    assert "Groups are in place." in out.getvalue()
    assert not get_user_model().objects.exists() and not Site.objects.exists() and not Folder.objects.exists()
    assert not PeriodicTask.objects.exists(), "the beat writes the schedule (tests/foundation/test_beat_schedule.py)"


def test_the_installed_package_leaves_the_demo_and_research_code_out():
    """`pip install .` installs what [tool.setuptools.packages.find] includes: every app, never the demo sites
    nor the research code (simulated expert, dataset builders)."""
    import tomllib

    from setuptools import find_packages

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    installed = set(find_packages(str(ROOT), include=config["include"], exclude=config.get("exclude", ())))
    assert {"foundation", "wims", "monitor", "filters", "classifier"} <= installed
    assert not {p for p in installed if p.split(".")[0] in ("demo", "research", "tests")}
    # every Django app in INSTALLED_APPS that lives in this checkout is installed
    from django.conf import settings

    local = {app.split(".")[0] for app in settings.INSTALLED_APPS if (ROOT / app.split(".")[0]).is_dir()}
    assert local <= installed


def run_manage(*args, env_overrides: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    # Scrub what the test session (or the e2e conftest) may have set, so the child sees only env_overrides.
    scrubbed = {
        *("SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "WIMS_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE"),
        *("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"),
    }
    env = {k: v for k, v in os.environ.items() if k not in scrubbed}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


STRONG_KEY = "x" * 20 + "a-long-random-production-secret-key-for-the-test-0123456789"
PRODUCTION = {
    "WIMS_ENV": "production",
    "SECRET_KEY": STRONG_KEY,
    "ALLOWED_HOSTS": "wims.example.org",
    "DATABASE_URL": "sqlite:///:memory:",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
}


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"SECRET_KEY": "short-key"}, "SECRET_KEY is weak"),
        ({"SECRET_KEY": "django-insecure-" + "k" * 50}, "SECRET_KEY is weak"),
        ({"SECRET_KEY": "ab" * 30}, "SECRET_KEY is weak"),
        ({"ALLOWED_HOSTS": "*"}, "not '*'"),
        ({"ALLOWED_HOSTS": "wims.example.org,*.example.org"}, "not '*'"),
        ({"DATABASE_URL": ""}, "DATABASE_URL must be set"),
        ({"CELERY_BROKER_URL": ""}, "CELERY_BROKER_URL must be set"),
    ],
    ids=["short-key", "django-insecure", "few-characters", "wildcard", "wildcard-domain", "no-database", "no-broker"],
)
def test_production_refuses_to_start_with_unsafe_settings(override, message):
    """These were accepted (a warning for the key, silent fallbacks to SQLite and the file broker)."""
    result = run_manage("check", env_overrides={**PRODUCTION, **override})
    assert result.returncode != 0
    assert message in result.stderr
    assert run_manage("check", env_overrides=PRODUCTION).returncode == 0


def test_production_refuses_to_start_without_secret_key():
    result = run_manage("check", env_overrides={"WIMS_ENV": "production", "ALLOWED_HOSTS": "wims.example.org"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({}, "SECRET_KEY is not set, and neither WIMS_ENV nor DEBUG says this is a development machine"),
        ({"SECRET_KEY": "django-insecure-" + "k" * 50}, "SECRET_KEY is weak"),
        ({"SECRET_KEY": "short-key"}, "SECRET_KEY is weak"),
        ({"SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "*"}, "not '*'"),
    ],
    ids=["no-key", "django-insecure", "short-key", "wildcard"],
)
def test_without_wims_env_or_debug_unsafe_settings_refuse_to_start(override, message):
    """A server started without its environment file (no WIMS_ENV, DEBUG off) started on a development key or
    any host name, with warnings at most; it now refuses and says what to set. Development said so starts."""
    result = run_manage("check", env_overrides=override)
    assert result.returncode != 0, "started"
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr, result.stderr[-2000:]
    assert "WIMS_ENV=production" in result.stderr and "WIMS_ENV=development (or DEBUG=1)" in result.stderr
    for declared in ({"WIMS_ENV": "development"}, {"DEBUG": "1"}):
        started = run_manage("check", env_overrides={**override, **declared})
        assert started.returncode == 0, (declared, started.stderr[-2000:])


def test_without_wims_env_safe_settings_start():
    assert run_manage("check", env_overrides={"SECRET_KEY": STRONG_KEY}).returncode == 0


def test_check_deploy_with_production_variables_reports_no_errors():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "ERROR",
        env_overrides=PRODUCTION,
    )
    assert result.returncode == 0, result.stderr
    assert "ERRORS" not in result.stderr
    # Only the warnings docs/security.md explains may remain ("Production settings").
    warnings = set(re.findall(r"\(security\.(W\d+)\)", result.stderr + result.stdout))
    assert warnings <= {"W021"}, warnings
    assert all(w in (ROOT / "docs" / "security.md").read_text() for w in warnings)


def test_production_never_creates_the_demo_login():
    result = run_manage(
        "bootstrap",
        "--demo",
        env_overrides=PRODUCTION,
    )
    assert result.returncode != 0
    assert "the demo login and demo sites are never created there" in result.stderr


def test_a_malformed_number_in_the_environment_is_named_in_the_error():
    result = run_manage("check", env_overrides={"WIMS_ENV": "development", "WIMS_FEED_ITEMS": "fifty"})
    assert result.returncode != 0
    assert "WIMS_FEED_ITEMS='fifty' is not a whole number" in result.stderr
    result = run_manage("check", env_overrides={"WIMS_ENV": "development", "WIMS_FEED_ITEMS": "0"})
    assert "WIMS_FEED_ITEMS='0' is below its minimum, 1" in result.stderr


@pytest.mark.parametrize(
    ("override", "message", "fixed"),
    [
        # a lease within the hard time limit (the time limit + 20 s) of an article's fetch or processing: the
        # sweep would hand the article to a second worker while the first one's task may still run
        ({"WIMS_LEASE_SECONDS": "120"}, "WIMS_LEASE_SECONDS=120 must exceed the hard time limit", "121"),
        ({"WIMS_TASK_TIME_LIMIT": "170"}, "WIMS_LEASE_SECONDS=180 must exceed the hard time limit", "191"),
        ({"WIMS_AUTO_LEARN_PAGES": "1"}, "WIMS_AUTO_LEARN_PAGES=1: site learning needs 2 pages at least", None),
    ],
    ids=["short-lease", "long-time-limit", "learning-from-one-page"],
)
def test_inconsistent_settings_refuse_to_start(override, message, fixed):
    result = run_manage("check", env_overrides={"WIMS_ENV": "development", **override})
    assert result.returncode != 0, "started"
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr, result.stderr[-2000:]
    if fixed is not None:  # a lease past the hard time limit starts
        started = run_manage(
            "check", env_overrides={"WIMS_ENV": "development", **override, "WIMS_LEASE_SECONDS": fixed}
        )
        assert started.returncode == 0, started.stderr[-2000:]


@pytest.mark.parametrize(
    ("addr", "public"),
    [("127.0.0.1:8765", "http://127.0.0.1:8765"), ("0.0.0.0:9000", "http://127.0.0.1:9000"), ("", None)],
)
def test_links_in_alerts_follow_the_address_make_run_serves_on(addr, public):
    """Issue 30: e-mails linked to port 8000 whatever WIMS_ADDR said; unset, WIMS_PUBLIC_URL now follows it."""
    env = {"WIMS_ENV": "development", "WIMS_PUBLIC_URL": ""}
    if addr:
        env["WIMS_ADDR"] = addr
    code = "from django.conf import settings; print(settings.WIMS_PUBLIC_URL)"
    result = run_manage("shell", "-c", code, env_overrides=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == (public or "http://127.0.0.1:8000")
    explicit = run_manage("shell", "-c", code, env_overrides={**env, "WIMS_PUBLIC_URL": "https://wims.example.org"})
    assert explicit.stdout.strip().splitlines()[-1] == "https://wims.example.org"
