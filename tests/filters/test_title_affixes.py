"""The site name around page titles: learned with the site profile, stripped by extract()."""

import pytest

from demo import SERVED_SITES, render_article_page
from filters import extract, get_profile, learn_profile
from filters.learning import title_affixes
from filters.pipeline import strip_title_affixes


def test_common_suffix_and_prefix_are_found():
    titles = [
        "Walk after meals | Health Watch Daily",
        "Flu jabs open | Health Watch Daily",
        "Sleep and mood | Health Watch Daily",
    ]
    assert title_affixes(titles) == ("", " | Health Watch Daily")
    titles = [
        "The Clinic Courier :: Foot clinic opens",
        "The Clinic Courier :: Memory clinic",
        "The Clinic Courier :: Poll results",
    ]
    assert title_affixes(titles) == ("The Clinic Courier :: ", "")


def test_a_few_titles_without_the_affix_do_not_prevent_it():
    titles = ["A | Site", "B | Site", "C | Site", "D | Site", "Site"]  # the home page: the name alone
    assert title_affixes(titles) == ("", " | Site")
    # the longest shared suffix wins over a shorter one
    assert title_affixes(["A - b | X", "C - b | X", "D | X"]) == ("", " - b | X")


@pytest.mark.parametrize(
    "titles",
    [
        [],
        ["Only one | Site"],
        ["Mediterranean-style eating", "Mediterranean-style living"],  # a hyphen inside a word
        ["Morning sickness: what helps", "Night sweats: what helps"],  # a colon without a space before
        ["A | One", "B | Two", "C | Three"],  # nothing shared
    ],
)
def test_no_affix_without_evidence(titles):
    assert title_affixes(titles) == ("", "")


def test_strip_never_leaves_an_empty_title():
    assert strip_title_affixes("Story | Site", suffix=" | Site") == "Story"
    assert strip_title_affixes("Site :: Story", prefix="Site :: ") == "Story"
    assert strip_title_affixes(" | Site", suffix=" | Site") == " | Site"
    assert strip_title_affixes("Other | Elsewhere", suffix=" | Site") == "Other | Elsewhere"


@pytest.mark.parametrize("spec", SERVED_SITES, ids=lambda s: s.key)
def test_learned_profile_strips_the_demo_site_names(spec):
    pages = [(a.slug, render_article_page(spec.key, a.slug)) for a in spec.articles[:8]]
    profile = learn_profile(pages[:6], base="default")
    for slug, html in pages[6:]:
        assert spec.name in extract(html, profile="default").title
        title = extract(html, profile=profile).title
        assert title == spec.article(slug).title
    # the faithful profile and unlearned profiles leave titles alone
    assert get_profile("thesis").title_suffix == "" and get_profile("default").title_prefix == ""


@pytest.mark.django_db
def test_site_profile_model_keeps_the_affixes():
    from filters.models import SiteProfile
    from monitor.models import Site

    site = Site.objects.create(name="Affix", home_url="http://affix.invalid/")
    learned = get_profile("default").copy(title_prefix="Affix :: ", title_suffix=" | Affix")
    sp = SiteProfile(site=site)
    sp.set_profile(learned)
    sp.save()
    again = SiteProfile.objects.get(pk=sp.pk).to_profile()
    assert (again.title_prefix, again.title_suffix) == ("Affix :: ", " | Affix")


def test_affixes_in_other_forms_are_one_affix():
    """Issue 30: titles whose separators or case vary keep the site's name ("… - BBC News", "… | BBC NEWS")."""
    titles = ["Phones get smarter - BBC News", "Rates held | BBC NEWS", "Floods in the north - BBC News"]
    prefix, suffix = title_affixes(titles)
    assert prefix == "" and suffix
    assert strip_title_affixes("Rates held | BBC NEWS", suffix=suffix) == "Rates held"
    assert strip_title_affixes("Rail fares rise – BBC News", suffix=suffix) == "Rail fares rise"
    assert strip_title_affixes("Rail fares rise - BBC Sport", suffix=suffix) == "Rail fares rise - BBC Sport"


def test_a_varying_section_next_to_the_site_name_is_stripped_with_it():
    titles = [
        "BBC NEWS | Technology | Phones get smarter",
        "BBC NEWS | Health | Flu jabs open",
        "BBC NEWS | Technology | Chips shrink again",
        "BBC NEWS | Business | Rates held",
    ]
    prefix, suffix = title_affixes(titles)
    assert suffix == "" and "{section}" in prefix
    assert [strip_title_affixes(t, prefix=prefix) for t in titles] == [
        "Phones get smarter",
        "Flu jabs open",
        "Chips shrink again",
        "Rates held",
    ]
    # the section is short, and the title after it is kept whole, separators included
    assert strip_title_affixes("BBC NEWS | Health | Flu: what next | part 2", prefix=prefix) == (
        "Flu: what next | part 2"
    )
    # one section on every title is no variation: the literal affix is learned as before
    same = [t.replace("Health", "Technology").replace("Business", "Technology") for t in titles]
    assert title_affixes(same) == ("BBC NEWS | Technology | ", "")
