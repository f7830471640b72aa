"""Moving processing's output off the article row (processing 0002, monitor 0009) keeps every article's core
text, tokens, stored extraction, DocView elements and fingerprint bands, both ways.

The test database is taken back to before the move, given articles through the historical models (one
processed, one still waiting for its fetch), migrated forward, then back again, then forward to the latest.
"""

import pytest
from django.db import connection

from processing.models import ArticleContent, FingerprintBand
from tests.feeds.test_migrations import latest, migrate, state_before_the_move

BEFORE_THE_MOVE = [("monitor", "0008_article_held_slot"), ("processing", "0001_site_learning")]

OUTPUT = {
    "core_text": "Flu season arrives early. GP visits rise.",
    "tokens": ["flu", "season", "gp visits"],
    "extraction": {"profile": "news", "counts": {"kept": 2}, "phrases": [["Flu season arrives early.", "", "", ""]]},
    "keywords": [["flu", 0.9], ["season", 0.4]],
    "abstract": "Flu season arrives early.",
    "relevant_links": [["https://old.example/gp", "GP visits"]],
    "fingerprint": b"\x01\x02\x03\x04",
}


@pytest.mark.django_db(transaction=True)
def test_processing_output_survives_the_move_and_the_way_back():
    executor = migrate(BEFORE_THE_MOVE)
    try:
        old = state_before_the_move(executor)
        site = old.get_model("monitor", "Site").objects.create(name="Old Daily", home_url="https://old.example/")
        Article = old.get_model("monitor", "Article")
        processed = Article.objects.create(
            site=site, url="https://old.example/flu", state="processed", processed_at="2026-11-01T10:00:00Z", **OUTPUT
        )
        waiting = Article.objects.create(site=site, url="https://old.example/next", state="pending")
        old.get_model("monitor", "FingerprintBand").objects.bulk_create(
            [old.get_model("monitor", "FingerprintBand")(article=processed, key=k) for k in (-5, 7, 2**40)]
        )

        migrate(latest())
        tables = connection.introspection.table_names()
        assert "monitor_fingerprintband" not in tables
        content = ArticleContent.objects.get(pk=processed.pk)
        assert {name: getattr(content, name) for name in OUTPUT} | {"fingerprint": bytes(content.fingerprint)} == OUTPUT
        assert not ArticleContent.objects.filter(pk=waiting.pk).exists()  # processing never wrote it
        assert sorted(FingerprintBand.objects.filter(article_id=processed.pk).values_list("key", flat=True)) == [
            -5,
            7,
            2**40,
        ]

        executor = migrate(BEFORE_THE_MOVE)  # and back: the article's columns hold the output again
        back = state_before_the_move(executor)
        row = back.get_model("monitor", "Article").objects.get(pk=processed.pk)
        assert {name: getattr(row, name) for name in OUTPUT} | {"fingerprint": bytes(row.fingerprint)} == OUTPUT
        keys = back.get_model("monitor", "FingerprintBand").objects.values_list("key", flat=True)
        assert sorted(keys) == [-5, 7, 2**40]
    finally:
        migrate(latest())  # the rest of the suite runs on the latest schema, even if this test failed above
