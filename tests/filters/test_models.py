"""SiteProfile: stores a learned profile per site and rebuilds the pure profile object."""

import pytest

from filters import extract, get_profile
from filters.models import SiteProfile
from filters.services import learn_site_profile, profile_for_site
from monitor.models import Site

pytestmark = pytest.mark.django_db

BANNER = "Harbour Herald - independent local news since 1899"


def _page(n):
    topic = ["ferry timetable", "school roof", "lifeboat crew", "fish market"][n % 4]
    return (
        f"<html><head><title>Herald {n}</title></head><body><div>{BANNER}</div>"
        f"<h1>News {n}</h1><div>Today the {topic} story number {n} changed again, residents said.</div>"
        f"<div>Contact the newsroom at any time of the day or night</div></body></html>"
    )


@pytest.fixture
def site():
    return Site.objects.create(name="Harbour Herald", home_url="https://herald.example/")


def test_learn_site_profile_stores_and_round_trips(site):
    pages = [(f"https://herald.example/{n}", _page(n)) for n in range(5)]
    sp = learn_site_profile(site, pages, learn_threshold=False)
    sp = SiteProfile.objects.get(pk=sp.pk)
    assert site.filter_profile == sp
    # the default profile learns the site style tree (filters.sst), and the redundant phrases beside it
    assert sp.settings["style_tree"]["root"] and not sp.filtering_words
    assert sp.base_profile == "default" and sp.threshold == 20 and not sp.threshold_learned
    assert sp.learned_at is not None
    assert set(sp.learned_from) <= {u for u, _ in pages} and sp.sample_size == len(sp.learned_from) >= 2
    prof = sp.to_profile()
    assert prof.block_phrases and prof.filtering_phrases == sp.filtering_phrases
    assert prof.style_tree == sp.settings["style_tree"]
    e = extract(_page(7), profile=prof)
    assert BANNER not in e.text and "fish market" in e.text
    assert profile_for_site(site).style_tree == prof.style_tree


def test_redundant_phrase_learning_is_stored_too(site):
    pages = [(f"https://herald.example/{n}", _page(n)) for n in range(5)]
    sp = learn_site_profile(site, pages, learn_threshold=False, style_tree=False)
    assert BANNER in sp.filtering_phrases and "style_tree" not in sp.settings
    assert BANNER not in extract(_page(7), profile=sp.to_profile()).text


def test_relearning_updates_the_same_row_and_keeps_the_base(site):
    learn_site_profile(site, [_page(n) for n in range(3)], base="thesis")
    sp = learn_site_profile(site, [_page(n) for n in range(4)])
    assert SiteProfile.objects.filter(site=site).count() == 1
    assert sp.base_profile == "thesis"
    assert sp.to_profile().negative_tags == get_profile("thesis").negative_tags


def test_too_few_pages_leave_the_profile_unchanged(site):
    with pytest.raises(ValueError):
        learn_site_profile(site, [("u", _page(1))])
    assert not SiteProfile.objects.filter(site=site).exists()
    assert profile_for_site(site).name == "default"


def test_the_sites_usual_main_content_is_stored_and_read_back(site):
    from tests.filters.test_site_region import SAMPLES

    sp = learn_site_profile(site, [(f"https://town.example/{n}", html) for n, html in enumerate(SAMPLES)])
    sp = SiteProfile.objects.get(pk=sp.pk)
    region = sp.settings["main_region"]
    assert region["path"] == ["html", "body", "div.wrap", "div.story"]
    assert sp.to_profile().main_region == region
    # a row stored before the field existed has none: its profile loads without one
    del sp.settings["main_region"]
    sp.save()
    assert SiteProfile.objects.get(pk=sp.pk).to_profile().main_region == {}
