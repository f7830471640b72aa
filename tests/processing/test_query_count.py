"""SQL statements per article, fetch and processing (a count, not a time: the benchmark times them).

An article's pipeline cost is mostly its database round trips (docs/benchmarks/webmon.md), so their number
is pinned here: a change that adds one fails this test instead of slowing WebMon down unnoticed. Counts
include the transaction statements (BEGIN, COMMIT, SAVEPOINT, RELEASE), which are round trips too. Before
this test, an article with one suggestion took 34 statements on PostgreSQL (6 fetching, 28 processing); then
18 (7 fetching, 11 processing); 21 with DocView's elements (7 fetching, 14 processing).
"""

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classifier.models import Classification
from filters.models import SiteProfile
from monitor import services
from monitor.models import Article
from processing import services as processing
from tests.monitor.conftest import register, run_tasks, seed_rule, special_report

pytestmark = pytest.mark.django_db(transaction=True)

#: statements of one fetch: claim, article with its site, politeness slot, then in one transaction the fetch
#: log and the stored page (robots.txt comes from this process's cache)
FETCH = {"postgresql": 7, "sqlite": 7}
#: statements of one processing: claim, article with site and profile, then in one transaction (BEGIN,
#: COMMIT) the case (knowledge-base share lock, case, keyword index, and for an article with suggestions the
#: suggestions and its review state) and the article's final row, whose unique content hash is the
#: re-publication check; then the learning check (none once the site's profile is learned, one before).
#: 22 on PostgreSQL (20 on SQLite) before the ingestion was made cheaper; the target is 12 at most.
#: DocView added three (11 before): the keywords' document frequencies from the keyword index, the
#: near-duplicate lookup by fingerprint bands, and the insert of the new original's bands.
#: Search added one: the article's search document (search.services.index_article, an upsert).
#: On PostgreSQL one more: the locks of the article's band keys, taken before the near-duplicate lookup, inside
#: the transaction (two near-copies processed at the same moment both stayed originals before).
#: Moving processing's output to its own row (processing.models.ArticleContent) added its INSERT; a new case's
#: review state saved with the article's final row (not an UPDATE of its own) took one away. (Counting the
#: site's read pages in the article's SELECT took another, but missed the pages other workers committed
#: meanwhile: a site's last pages never asked for learning; tests/processing/test_auto_learning.py.)
#: Then three (two on SQLite) fewer: the search document follows the content row by triggers (search/backends.py),
#: and the case's INSERT reads the knowledge base's stamp under its share lock and, on PostgreSQL, inserts its
#: keyword index in the same statement (classifier/services/cases.py).
#: A site whose profile is learned (every site after its first pages) pays no learning check:
PROCESS = {"postgresql": 12, "sqlite": 12}
#: a site's first pages, until its profile is learned, pay one more: the count of its stored pages after commit
LEARNING_CHECK = 1


def test_statements_per_article_fetch_and_processing(demo, fast_env):
    """A new site: its profile not learned yet, so each article also counts the site's stored pages."""
    seed_rule("diabetes", "Health/Diabetes")
    site = register(demo, "healthwatch")
    polled = services.poll_site(site.pk).enqueue
    sent = time.monotonic()
    # the stories, and the special report (a list of stories at a story's address), which processing keeps out
    report = Article.objects.filter(url__in=special_report(demo, "healthwatch")).values_list("pk", flat=True)
    assert len(polled) == 5 and len(report) == 1
    counts = []  # (fetch statements, processing statements, their SQL)
    for _, pk, countdown in [fetch for fetch in polled if fetch[1] not in report][:3]:
        time.sleep(max(0.0, sent + countdown - time.monotonic()))  # each fetch's politeness turn
        with CaptureQueriesContext(connection) as fetch:
            assert services.fetch_article(pk).result == "fetched"
        with CaptureQueriesContext(connection) as process:
            assert processing.process_article(pk).result == "processed"
        sql = [q["sql"][:120] for q in fetch.captured_queries + process.captured_queries]
        counts.append((len(fetch), len(process), sql))
    vendor = connection.vendor
    for n_fetch, n_process, sql in counts[1:]:  # the first article also reads robots.txt and the rules
        assert n_fetch <= FETCH[vendor], sql
        assert n_process <= PROCESS[vendor] + LEARNING_CHECK, sql
    assert Article.objects.filter(state="processed").count() == 4  # the seed article and three fetched


def test_statements_per_article_of_a_site_whose_profile_is_learned(demo, fast_env, tunables):
    tunables(WIMS_AUTO_LEARN_PAGES=4)
    seed_rule("screens", "Health/Sleep")  # the next edition's story ("Screens in the bedroom…"): one suggestion
    site = register(demo, "healthwatch")
    run_tasks(services.poll_site(site.pk))  # the first four pages, and the profile learned from them
    assert SiteProfile.objects.get(site=site).learned_at is not None
    demo.publish("healthwatch")
    new = [pk for work, pk, _ in services.poll_site(site.pk).enqueue if work == "fetch"]
    assert len(new) == 1
    run_tasks([("fetch", new[0], 0)], only=("fetch",))
    with CaptureQueriesContext(connection) as process:
        assert processing.process_article(new[0]).result == "processed"
    assert len(process) <= PROCESS[connection.vendor], [q["sql"][:120] for q in process.captured_queries]
    assert Classification.objects.filter(case__article_id=new[0]).count() == 1  # the suggestion was counted
