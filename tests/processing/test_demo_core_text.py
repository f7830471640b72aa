"""The demo sites' articles as WebMon fetched them and processing stored them: the core text the experts read (and the
classifier tokenizes) starts with the article's standfirst, not a section kicker ("Mind"), carries no "Posted: ... |
Filed under ..." line, and keeps the article's first paragraph (issue 30 item 4)."""

import pytest

from demo.pages import SECTION_TITLES
from monitor import services
from monitor.models import Article
from tests.monitor.conftest import ground_truth, register, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def site_labels(core_text: str, section: str) -> list[str]:
    name = SECTION_TITLES[section]
    return [
        line for line in core_text.splitlines() if line == name or line.startswith("Posted") or "Filed under" in line
    ]


@pytest.mark.parametrize("key", ["healthwatch", "courier", "wellbeing"])
def test_the_stored_core_text_has_no_kicker_or_filed_under_line(demo, fast_env, key):
    site = register(demo, key)
    run_tasks(services.poll_site(site.pk))
    truth = ground_truth(demo, key)
    articles = list(Article.objects.filter(site=site, state="processed").select_related("content"))
    assert len(articles) == len(truth) == 4
    for article in articles:
        expected = truth[article.url]
        core = article.content.core_text
        assert site_labels(core, expected["section"]) == [], (article.url, core[:300])
        title, standfirst, first, *_ = expected["core_text"].splitlines()
        lines = core.splitlines()
        assert lines[0] == standfirst and first in lines, (article.url, lines[:3])
        assert article.content.extraction["headline"] == title
        # the classifier's words: the section's name is no word of the article's unless its text says it
        words = set(article.content.tokens)
        for word in SECTION_TITLES[expected["section"]].lower().split():
            assert word not in words or word in expected["core_text"].lower(), (article.url, word)
