"""Moving FeedToken from the classifier app to feeds keeps the tokens subscribers already hold.

The test database is taken back to before the move (classifier 0005, no feeds migration), given what an
installation of the earlier code holds (an expert, a private folder with an accepted article, a token for
it, a permission on feed tokens) through the historical models, then migrated forward to the latest
migrations: the same row must now be a feeds.FeedToken and the subscriber's feed URL must still work.
"""

import hashlib
import secrets

import feedparser
import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from classifier.models import Folder
from feeds.models import FeedToken
from feeds.syndication import article_guid, folder_feed_url
from foundation.roles import EXPERTS

BEFORE_THE_MOVE = ("classifier", "0005_unique_top_level_folder_name")


def migrate(targets) -> MigrationExecutor:
    """Migrate the test database to ``targets``; returns an executor whose graph knows the result."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def state_before_the_move(executor: MigrationExecutor):
    """The historical models of every app as the database holds them now (before the move): the state of every
    applied migration. Apps whose migrations need a later classifier (search, alerts...) were unapplied with it."""
    return executor.loader.project_state(list(executor.loader.applied_migrations)).apps


@pytest.mark.django_db(transaction=True)
def test_feed_tokens_survive_the_move_to_the_feeds_app(client):
    executor = migrate([BEFORE_THE_MOVE, ("feeds", None)])
    try:
        assert "classifier_feedtoken" in connection.introspection.table_names()
        old = state_before_the_move(executor)
        with pytest.raises(LookupError):
            old.get_model("feeds", "FeedToken")

        group, _ = old.get_model("auth", "Group").objects.get_or_create(name=EXPERTS)
        expert = old.get_model("auth", "User").objects.create(username="old-expert", password="!")
        expert.groups.add(group)
        intel = old.get_model("classifier", "Folder").objects.create(name="Intel", path="Intel", public=False)
        site = old.get_model("monitor", "Site").objects.create(name="Old Daily", home_url="https://old.example/")
        article = old.get_model("monitor", "Article").objects.create(
            site=site, url="https://old.example/report", title="Old report"
        )
        case = old.get_model("classifier", "Case").objects.create(article=article, keywords=["report"])
        old.get_model("classifier", "Classification").objects.create(
            case=case, folder=intel, state="accepted", decided_by=expert
        )
        token = secrets.token_urlsafe(24)
        digest = hashlib.sha256(token.encode()).hexdigest()
        row = old.get_model("classifier", "FeedToken").objects.create(
            folder=intel, subscriber="Alice", digest=digest, prefix=token[:8], created_by=expert
        )
        content_type, _ = old.get_model("contenttypes", "ContentType").objects.get_or_create(
            app_label="classifier", model="feedtoken"
        )
        permission, _ = old.get_model("auth", "Permission").objects.get_or_create(
            content_type=content_type, codename="view_feedtoken", defaults={"name": "Can view feed token"}
        )
        expert.user_permissions.add(permission)
    finally:
        migrate(latest())  # the rest of the suite runs on the latest schema, even if this test failed above
    ContentType.objects.clear_cache()  # it may map (app, model) to ids from before the move

    tables = connection.introspection.table_names()
    assert "feeds_feedtoken" in tables and "classifier_feedtoken" not in tables
    moved = FeedToken.objects.get(pk=row.pk)
    assert (moved.subscriber, moved.digest, moved.prefix) == ("Alice", digest, token[:8])
    assert moved.folder_id == intel.pk and moved.created_by_id == expert.pk and moved.active
    assert FeedToken.lookup(token) == moved
    assert ContentType.objects.get_for_model(FeedToken).pk == content_type.pk
    assert get_user_model().objects.get(pk=expert.pk).has_perm("feeds.view_feedtoken")

    folder = Folder.objects.get(pk=intel.pk)
    assert client.get(folder_feed_url(folder, "rss")).status_code == 404  # still private
    response = client.get(folder_feed_url(folder, "rss", token=token))
    assert response.status_code == 200
    parsed = feedparser.parse(response.content)
    assert [(e.title, e.id) for e in parsed.entries] == [("Old report", article_guid(article.pk))]
