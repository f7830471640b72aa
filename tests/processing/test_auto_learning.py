"""Automatic site learning (processing/learning.py): a new demo site's filter profile is learned once its first
WIMS_AUTO_LEARN_PAGES pages are stored, its processed articles are re-filtered (template text gone, article
text kept, titles without the site's name) and the experts' decisions survive; once only, whatever the
number of workers; never again once the site has a profile."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from classifier import kb
from classifier import services as classifier
from classifier.features import kind_of
from classifier.models import Case, Classification
from filters.models import SiteProfile
from filters.services import learn_site_profile
from foundation.work import Outcome
from monitor import services
from monitor.models import Article, Site
from processing import learning
from tests.monitor.conftest import FAST_ENV, ground_truth, register, run_tasks, run_until, seed_rule

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = 6

#: template text of each demo site that the default profile keeps in every article's core text
NOISE = {
    "healthwatch": [
        "We use cookies",
        "Independent health news since 1998",
        "Health Watch newsletter",
        "All rights reserved",
        "is an independent health newsroom",
    ],
    "courier": ["Your community health paper", "Free weekly e-mail bulletin", "All rights reserved", "Filed under"],
    "wellbeing": ["our 142 partners store and access information"],
}


@pytest.fixture
def auto_learn(fast_env, tunables):
    tunables(WIMS_AUTO_LEARN_PAGES=PAGES)


def run_pipeline(outcome: Outcome) -> list[Outcome]:
    """Run what an outcome asks for in this process (a worker's job); the outcomes seen."""
    return [outcome] + [seen for _, _, seen in run_tasks(outcome)]


def processed(site: Site):
    return Article.objects.filter(site=site, state="processed")


def recall(core_text: str, truth_text: str) -> float:
    lines = {line.strip() for line in core_text.splitlines()}
    truth = [line.strip() for line in truth_text.splitlines() if line.strip()]
    return sum(line in lines for line in truth) / len(truth)


@pytest.mark.parametrize("key", sorted(NOISE))
def test_site_learns_its_profile_from_its_first_pages_and_refilters_its_articles(demo, auto_learn, key):
    site = register(demo, key)
    demo.publish(key)  # 5 published
    run_pipeline(services.poll_site(site.pk))
    assert processed(site).count() == PAGES - 1
    assert not SiteProfile.objects.filter(site=site).exists(), "not before the sixth page"
    for article in processed(site):
        # its <title> is the headline with the site's name around it: the headline is the title already
        assert demo.sites[key].name not in article.title and article.title == article.content.extraction["headline"]
    # main-content detection removes the template around the article already (these pages had it in every
    # core text under libxml2 before); learning must not bring it back, and removes the newsroom's note under
    # every Health Watch story (a sentence a single page keeps)

    demo.publish(key)
    outcomes = run_pipeline(services.poll_site(site.pk))
    assert [o.result for o in outcomes].count("learned") == 1
    profile = SiteProfile.objects.get(site=site)
    assert profile.learned_at is not None and len(profile.learned_from) >= 2

    truth = ground_truth(demo, key)
    articles = list(processed(site))
    assert len(articles) == PAGES == len(truth)
    for article in articles:
        assert article.content.extraction["profile"] == f"site:{site.pk}"
        # the learned style tree's word weights are kept for the rule page's ranking
        weights = article.content.extraction["token_weights"]
        assert weights and all(0 <= w <= 1 for w in weights.values()) and set(weights) <= set(article.content.tokens)
        for noise in NOISE[key]:
            assert noise not in article.content.core_text, (article.url, noise)
        expected = truth[article.url]
        # the truth's first line is the headline: kept apart from the stored core text, the body
        headline = article.content.extraction["headline"]
        assert expected["core_text"].splitlines()[0].strip() == headline, article.url
        assert recall(f"{headline}\n{article.content.core_text}", expected["core_text"]) >= 0.95, article.url
        # the body starts with the standfirst: no section kicker ("Mind") above it (issue 30 item 4)
        assert article.content.core_text.splitlines()[0] == expected["core_text"].splitlines()[1], article.url
        assert article.title == expected["title"], "no site name around the title"
        case = Case.objects.get(article=article)
        expected = classifier.case_keywords(article, article.content.tokens, kb.current().features)
        assert case.keywords == expected, "the case has the new tokens"
        # crawled articles' cases carry the conditions for news: phrases and title/site/URL words
        assert {kind_of(k) for k in case.keywords} == {"word", "phrase", "title", "site", "url"}


def test_experts_decisions_survive_the_refiltering(demo, auto_learn):
    # A rule on a word of the newsroom's note under every story ("Health Watch Daily is an independent health
    # newsroom. ...") puts every article in the folder until learning filters the note's words out.
    folder, _rule = seed_rule("newsroom", "Site/Note")
    site = register(demo, "healthwatch")
    demo.publish("healthwatch")
    run_pipeline(services.poll_site(site.pk))
    cases = list(Case.objects.filter(article__site=site).order_by("pk"))
    assert len(cases) == PAGES - 1
    assert all(Classification.objects.filter(case=c, folder=folder, state="suggested").exists() for c in cases)
    expert = get_user_model().objects.create(username="expert")
    classifier.accept(cases[0], expert, [folder])
    classifier.reject(cases[1], folder, expert)

    demo.publish("healthwatch")
    run_pipeline(services.poll_site(site.pk))
    assert SiteProfile.objects.get(site=site).learned_at is not None
    rows = dict(Classification.objects.filter(folder=folder, case__article__site=site).values_list("case_id", "state"))
    assert rows == {cases[0].pk: "accepted", cases[1].pk: "rejected"}, "suggestions gone, decisions kept"
    assert all("newsroom" not in c.keywords for c in Case.objects.filter(article__site=site))


def test_learned_once_and_never_again_automatically(demo, auto_learn):
    site = register(demo, "courier")
    for _ in range(PAGES - 4):
        demo.publish("courier")
    run_pipeline(services.poll_site(site.pk))
    profile = SiteProfile.objects.get(site=site)
    again = learning.learn_site(site.pk)  # a redelivered message
    assert (again.result, again.enqueue) == ("refiltered", [])
    assert again.detail.startswith("0 re-filtered")
    assert SiteProfile.objects.get(site=site).learned_at == profile.learned_at

    # More articles: processed with the learned profile, nothing learned again.
    for _ in range(3):
        demo.publish("courier")
    outcomes = run_pipeline(services.poll_site(site.pk))
    assert "learned" not in [o.result for o in outcomes]
    assert not [t for o in outcomes for t in o.enqueue if t[0] == "learn"], "nothing to do for the learn task"
    latest = SiteProfile.objects.get(site=site)
    assert (latest.learned_at, latest.learned_from) == (profile.learned_at, profile.learned_from)
    assert set(processed(site).values_list("content__extraction__profile", flat=True)) == {f"site:{site.pk}"}


def test_a_profile_learned_by_an_administrator_is_kept(demo, auto_learn):
    site = register(demo, "wellbeing")
    run_pipeline(services.poll_site(site.pk))
    first_two = [(a.url, a.get_raw_html()) for a in processed(site).order_by("pk")[:2]]
    chosen = learn_site_profile(site, first_two)  # the admin action with two chosen pages
    for _ in range(PAGES):
        demo.publish("wellbeing")
    outcomes = run_pipeline(services.poll_site(site.pk))
    assert "learned" not in [o.result for o in outcomes]
    assert SiteProfile.objects.get(site=site).learned_from == chosen.learned_from == [u for u, _ in first_two]


def test_an_article_filtered_while_the_profile_was_stored_is_refiltered(demo, auto_learn):
    """The race: a worker filters an article with the default profile while another stores the profile."""
    site = register(demo, "healthwatch")
    for _ in range(PAGES - 4):
        demo.publish("healthwatch")
    run_pipeline(services.poll_site(site.pk))
    article = processed(site).first()
    # As if it had been processed with the default profile just before the profile was stored.
    article.content.extraction = {**article.content.extraction, "profile": "default"}
    article.content.core_text = "stale"
    article.content.save()
    assert learning.after_processing(site, "default") == [("learn", site.pk, 0)]
    assert learning.after_processing(site, f"site:{site.pk}") == []
    outcome = learning.learn_site(site.pk)
    assert (outcome.result, outcome.detail) == ("refiltered", "1 re-filtered (1 changed), 0 left")
    article.refresh_from_db()
    assert article.content.extraction["profile"] == f"site:{site.pk}" and article.content.core_text != "stale"


def test_batches_and_turned_off(demo, auto_learn, settings):
    site = register(demo, "courier")
    settings.WIMS_AUTO_LEARN_PAGES = 0  # off: nothing is learned automatically
    for _ in range(PAGES):
        demo.publish("courier")
    outcomes = run_pipeline(services.poll_site(site.pk))
    assert not [t for o in outcomes for t in o.enqueue if t[0] == "learn"]
    assert not SiteProfile.objects.filter(site=site).exists()

    settings.WIMS_AUTO_LEARN_PAGES = PAGES
    total = processed(site).count()
    runs = [learning.learn_site(site.pk, batch=4)]
    while runs[-1].enqueue:  # more left: the task asks for another run of itself
        assert runs[-1].enqueue == [("learn", site.pk, 0)]
        runs.append(learning.learn_site(site.pk, batch=4))
    assert [o.result for o in runs] == ["learned"] + ["refiltered"] * (len(runs) - 1)
    assert len(runs) == -(-total // 4)
    assert set(processed(site).values_list("content__extraction__profile", flat=True)) == {f"site:{site.pk}"}


def test_two_workers_learn_the_site_once(demo, auto_learn):
    site = register(demo, "healthwatch")
    for _ in range(PAGES - 4):
        demo.publish("healthwatch")
    run_tasks(services.poll_site(site.pk), only=("poll", "fetch", "process"))  # the learn tasks are raced below
    assert processed(site).count() == PAGES and not SiteProfile.objects.filter(site=site).exists()

    results, start = [], threading.Barrier(2)

    def worker():
        try:
            start.wait()
            results.append(learning.learn_site(site.pk).result)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == ["learned", "refiltered"]
    assert SiteProfile.objects.filter(site=site).count() == 1
    assert set(processed(site).values_list("content__extraction__profile", flat=True)) == {f"site:{site.pk}"}


@pytest.mark.worker
def test_a_real_worker_learns_the_site(demo, auto_learn, start_worker):
    site = register(demo, "wellbeing")
    for _ in range(PAGES - 4):
        demo.publish("wellbeing")
    start_worker(concurrency=2, pool="threads", extra_env={**FAST_ENV, "WIMS_AUTO_LEARN_PAGES": str(PAGES)})
    run_until(
        lambda: (
            SiteProfile.objects.filter(site=site, learned_at__isnull=False).exists()
            and set(processed(site).values_list("content__extraction__profile", flat=True)) == {f"site:{site.pk}"}
            and processed(site).count() == PAGES
        ),
        message="the site's profile and its re-filtered articles",
    )
    for article in processed(site):
        assert "our 142 partners" not in article.content.core_text and "Wellbeing Times" not in article.title


def test_re_learning_rebuilds_the_site_s_cases_and_a_cornerstone_keeps_its_keywords(demo, auto_learn):
    """Issue 14, item 6: the administrator re-learns the profile; every processed article is filtered again, its
    case rebuilt and re-inferred; a cornerstone case keeps the keywords its rule was validated on and says that its
    article's text has changed since."""
    site = register(demo, "courier")
    for _ in range(PAGES - 4):
        demo.publish("courier")
    run_pipeline(services.poll_site(site.pk))
    first = SiteProfile.objects.get(site=site)
    stone, other = (Case.objects.get(article=a) for a in processed(site).order_by("pk")[:2])
    # as if both were made from an older extraction holding the word "oldword"
    for case in (stone, other):
        Case.objects.filter(pk=case.pk).update(keywords=sorted([*case.keywords, "oldword"]))
        case.index_entries.create(keyword="oldword")
    expert = get_user_model().objects.create(username="expert")
    folder = classifier.create_folder("Old", expert)
    stone.refresh_from_db()
    [rule] = classifier.commit_rule(stone, "new", expert, folder=folder, conditions=["oldword"])
    assert Classification.objects.get(case=other, folder=folder).state == "suggested"

    pages = [(a.url, a.get_raw_html()) for a in processed(site).order_by("-pk")[:3]]
    outcome = learning.relearn_site(site, pages)
    assert outcome.enqueue == [("learn", site.pk, 0)]
    relearned = SiteProfile.objects.get(site=site)
    assert relearned.learned_at > first.learned_at
    run_pipeline(outcome)
    for article in processed(site):  # every article filtered with the new profile, its case rebuilt
        assert article.content.extraction["profile_learned_at"] == relearned.learned_at.isoformat()
    other.refresh_from_db()
    assert "oldword" not in other.keywords and other.text_changed_at is None
    assert not Classification.objects.filter(case=other, folder=folder).exists(), "re-inferred without the word"
    stone.refresh_from_db()
    assert "oldword" in stone.keywords and stone.text_changed_at is not None
    assert Classification.objects.get(case=stone, folder=folder).state == "accepted"
    assert learning.learn_site(site.pk).detail.startswith("0 re-filtered"), "done once"
