"""Bytes stored by table and per article (wims/storage.py, `manage.py storage`), on the database in use."""

from io import StringIO

import pytest
from django.core.management import call_command

from monitor.models import Article, Site
from tests.articles import create_article
from wims import storage

pytestmark = pytest.mark.django_db


def test_bytes_by_table_and_per_article():
    site = Site.objects.create(name="Daily", home_url="https://daily.example/")
    for n in range(20):
        article = create_article(
            site=site, url=f"https://daily.example/{n}", title=f"Story {n}", core_text="word " * 2000
        )
        article.set_raw_html(b"<html><body>" + b"<p>text</p>" * 3000 + b"</body></html>")
        article.save(update_fields=["raw_html", "raw_size"])
    measured = storage.measure()
    tables = {t.table: t for t in measured.tables}
    assert measured.articles == Article.objects.count() == 20
    assert tables["monitor_article"].rows == 20
    assert tables["processing_articlecontent"].bytes > 20 * 2000  # each core text is 10 kB before compression
    assert measured.total >= sum(t.bytes for t in measured.tables[:2]) > 0
    out = StringIO()
    call_command("storage", stdout=out)
    assert "20 articles" in out.getvalue() and "| monitor_article | 20 |" in out.getvalue()
