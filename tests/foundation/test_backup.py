"""Backup and restore (wims/backup.py, `manage.py backup` / `manage.py restore`): a backup of a populated
database, restored into an emptied one, gives back every site, rule, case, folder, feed token, saved search and
subscription; the restored database is then used by the app's own commands in a fresh process."""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from alerts.models import Subscription
from classifier import services
from classifier.models import Case, Classification, Folder, Rule
from feeds.models import FeedToken
from monitor.models import Article, Site
from search.models import SavedSearch
from tests.classifier.conftest import _fresh_kb_cache  # noqa: F401  (autouse)

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
MODELS = (Site, Article, Folder, Rule, Case, Classification, FeedToken, SavedSearch, Subscription)


def populate(user) -> dict[str, int]:
    site = Site.objects.create(name="Daily", home_url="https://daily.example/")
    sleep = services.create_folder("Sleep", user)
    case = services.ingest_case(
        Article.objects.create(site=site, url="https://daily.example/a/1", title="Sleep", state="processed"),
        ["sleep", "insomnia", "night"],
    )
    services.commit_rule(case, "new", user, folder=sleep, conditions=["insomnia"])
    FeedToken.issue(sleep, "the clinic", user)
    saved = SavedSearch.objects.create(owner=user, name="Insomnia", query="insomnia")
    Subscription.objects.create(user=user, folder=sleep)
    Subscription.objects.create(user=user, saved_search=saved)
    return counts()


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def database_url() -> str:
    db = settings.DATABASES["default"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    return f"postgres://{db.get('USER') or 'postgres'}@{host}:{port}/{db['NAME']}"


def test_backup_then_restore_into_an_emptied_database_gives_everything_back(django_user_model, tmp_path):
    user = django_user_model.objects.create_user("ada", "ada@example.org")
    before = populate(user)
    assert all(before.values()), before
    path = tmp_path / "wims.backup"
    call_command("backup", "-o", str(path), stdout=StringIO())
    assert path.stat().st_size > 0
    with pytest.raises(CommandError, match="exists"):
        call_command("backup", "-o", str(path))  # a backup never overwrites one
    with pytest.raises(CommandError, match="holds data"):
        call_command("restore", str(path))  # replacing data asks first

    call_command("flush", interactive=False, verbosity=0)  # a fresh install: the schema, no data
    assert not any(counts().values())
    call_command("restore", str(path), verbosity=0, stdout=StringIO())
    assert counts() == before
    rule = Rule.objects.get()
    assert rule.conditions == ["insomnia"] and rule.folder.name == "Sleep"
    assert Classification.objects.get().folder == rule.folder

    # the restored database, read by the app in a new process (as `make run` would): migrated, and whole
    env = {**os.environ, "DATABASE_URL": database_url(), "WIMS_ENV": "development"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--check"], env=env, check=True, capture_output=True, timeout=120)
    script = "import json; from tests.foundation.test_backup import counts; print(json.dumps(counts()))"
    shell = subprocess.run(
        [*manage, "shell", "-c", script], env=env, check=True, capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert json.loads(shell.stdout.strip().splitlines()[-1]) == before


def test_restore_refuses_a_file_that_is_no_backup(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    with pytest.raises(CommandError, match="not a"):
        call_command("restore", str(junk), "--yes")
    with pytest.raises(CommandError, match="no such backup"):
        call_command("restore", str(tmp_path / "missing"), "--yes")
