"""The article's parts in processing (issue 29 item 1): the stored core text is the body, the headline is the
title when the page's own is missing or branded, and the classifier still sees the headline's words."""

import pytest

from classifier.models import Case
from monitor.models import Article, Site
from processing.extraction import article_title
from processing.services import process_article

pytestmark = pytest.mark.django_db

BODY = (
    "<p>Health officials reported forty new measles cases this week, most of them among children who had not "
    "been vaccinated, and urged parents to check their records.</p>"
    "<p>Vaccination clinics will open on Saturday mornings until the end of the month, the authority said.</p>"
)


def page(title: str, headline: str) -> bytes:
    return (
        f"<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article><h1>{headline}</h1>{BODY}</article><footer>Copyright Clinic News</footer></body></html>"
    ).encode()


@pytest.fixture
def site():
    return Site.objects.create(name="Clinic News", home_url="http://127.0.0.1:9/", allow_private_addresses=True)


def processed(site: Site, n: int, body: bytes) -> Article:
    article = Article(site=site, url=f"http://127.0.0.1:9/story-{n}", state=Article.State.FETCHED)
    article.set_raw_html(body)
    article.headers = {"content-type": "text/html; charset=utf-8"}
    article.save()
    process_article(article.pk)
    return Article.objects.select_related("content").get(pk=article.pk)


def test_the_headline_is_the_title_when_the_pages_title_is_missing_or_branded():
    headline = "Measles cases rise in the north"
    assert article_title("", headline) == headline
    assert article_title(f"{headline} | Clinic News", headline) == headline
    assert article_title("Clinic News", headline, "Clinic News") == headline
    assert article_title(f"Clinic News - Health :: {headline}", headline) == headline
    # a short <h1> that only begins or ends the title is no headline with the site's name around it
    assert article_title("Health minister resigns | Clinic News", "Health") == "Health minister resigns | Clinic News"
    assert article_title("Clinic News | Ask the nurse", "nurse") == "Clinic News | Ask the nurse"
    # a title the site wrote is kept, and so is the title of a page without a headline
    assert article_title("Measles: forty new cases", headline, "Clinic News") == "Measles: forty new cases"
    assert article_title("Clinic News", "") == "Clinic News"


def test_the_core_text_is_the_body_and_the_branded_title_gives_way_to_the_headline(site):
    headline = "Measles cases rise in the north"
    article = processed(site, 1, page(f"{headline} | Clinic News", headline))
    assert article.state == Article.State.PROCESSED
    assert article.title == "Measles cases rise in the north"
    assert article.content.core_text.startswith("Health officials reported forty new measles cases")
    assert "rise in the north" not in article.content.core_text
    assert article.content.extraction["headline"] == "Measles cases rise in the north"
    keywords = Case.objects.get(article=article).keywords
    assert {"title:measles", "title:north", "north"} <= set(keywords)  # the headline's words, as both


def test_a_good_title_is_kept_and_the_headlines_words_are_title_words_all_the_same(site, ec):
    article = processed(site, 2, page("Forty new cases among children", "Measles cases rise in the north"))
    assert article.title == "Forty new cases among children"
    keywords = set(Case.objects.get(article=article).keywords)
    assert {"title:forty", "title:children", "title:measles", "title:north"} <= keywords
    # the article page: the headline as its title, the body below it, the headline not repeated in the body
    html = ec.get(f"/articles/{article.pk}/").content.decode()
    assert '<h1 id="article-title">Measles cases rise in the north</h1>' in html
    core = html.split('id="core-text">', 1)[1].split("</div>", 1)[0]
    assert core.startswith("<p>Health officials reported") and "rise in the north" not in core
