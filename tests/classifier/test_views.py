"""The experts' workspace views: permissions, inbox, article page, actions, rule building, folders."""

import re

import pytest
from django.urls import URLPattern, get_resolver, reverse
from django.utils import timezone
from django.utils.html import escape

from classifier import services
from classifier.models import Classification, Rule
from classifier.services import validation as validation_service
from foundation.roles import SITE_ADMINISTRATORS, ensure_groups
from monitor.models import Article, Site
from processing.models import ArticleContent
from tests.classifier.conftest import article_of


@pytest.fixture
def groups(db):
    return ensure_groups()


# --------------------------------------------------------------------------- permissions
def _workspace_urls():
    """Every named URL of the workspace with sample arguments."""
    for pattern in get_resolver().url_patterns:
        if getattr(pattern, "namespace", None) == "classifier":
            for p in pattern.url_patterns:
                assert isinstance(p, URLPattern)
                args = [1] * len(p.pattern.converters)
                yield p.name, reverse(f"classifier:{p.name}", args=args)


def test_every_workspace_view_requires_the_expert_role():
    from django.urls import get_resolver

    names = []
    for pattern in get_resolver().url_patterns:
        if getattr(pattern, "namespace", None) == "classifier":
            for p in pattern.url_patterns:
                assert getattr(p.callback, "required_role", None) == "experts", p.name
                names.append(p.name)
    assert {"inbox", "article", "rule", "rule_commit", "rule_undo", "folders", "article_filters"} <= set(names)


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_login(client):
    for name, url in _workspace_urls():
        response = client.get(url)
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("login")), name


@pytest.mark.django_db
def test_signed_in_non_experts_get_403(client, django_user_model, groups):
    admin = django_user_model.objects.create_user("site-admin", password="pw")  # noqa: S106
    admin.groups.add(groups[SITE_ADMINISTRATORS])
    client.force_login(admin)
    for name, url in _workspace_urls():
        response = client.post(url) if name in {"accept", "reject", "move", "rule_undo"} else client.get(url)
        assert response.status_code == 403, name


@pytest.mark.django_db
def test_actions_refuse_get_and_need_csrf(expert_user, sport_kb):
    from django.test import Client

    article = article_of(sport_kb["new"])
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(expert_user)
    assert strict.get(reverse("classifier:accept", args=[article.pk])).status_code == 405
    assert strict.post(reverse("classifier:accept", args=[article.pk])).status_code == 403  # no token
    assert Classification.objects.filter(case=sport_kb["new"], state="accepted").count() == 0
    page = strict.get(reverse("classifier:article", args=[article.pk]))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    response = strict.post(reverse("classifier:accept", args=[article.pk]), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Classification.objects.filter(case=sport_kb["new"], state="accepted").count() == 1


# --------------------------------------------------------------------------- inbox
@pytest.mark.django_db
def test_inbox_lists_newest_first_and_filters_by_state(ec, sport_kb):
    response = ec.get(reverse("classifier:inbox"))
    assert response.status_code == 200
    titles = [row.article.pk for row in response.context["page"].rows]
    assert titles == sorted(titles, reverse=True)  # created in order, so newest = highest id
    pending = ec.get(reverse("classifier:inbox"), {"state": "pending"}).context["page"].rows
    assert [r.article.pk for r in pending] == [sport_kb["new"].article_id]
    reviewed = ec.get(reverse("classifier:inbox"), {"state": "reviewed"}).context["page"].rows
    assert [r.article.pk for r in reviewed] == [sport_kb["stone"].article_id]
    # a bookmark from before issue 30 ("classified" became "reviewed") still filters
    old = ec.get(reverse("classifier:inbox"), {"state": "classified"})
    assert [r.article.pk for r in old.context["page"].rows] == [sport_kb["stone"].article_id]
    assert '<option value="reviewed" selected>' in old.content.decode()
    unreviewed = ec.get(reverse("classifier:inbox"), {"state": "unreviewed"}).context["page"].rows
    assert [r.article.pk for r in unreviewed] == [sport_kb["vote"].article_id]


def test_failed_articles_have_their_own_inbox_state_not_unreviewed(ec, sport_kb, site):
    failed = Article.objects.create(
        site=site, url="https://daily.example/broken", state="failed", last_error="HTTP 410"
    )
    unreviewed = ec.get(reverse("classifier:inbox"), {"state": "unreviewed"}).context["page"].rows
    assert [r.article.pk for r in unreviewed] == [sport_kb["vote"].article_id]
    response = ec.get(reverse("classifier:inbox"), {"state": "failed"})
    assert [(r.article.pk, r.state) for r in response.context["page"].rows] == [(failed.pk, "failed")]
    assert 'title="HTTP 410"' in response.content.decode(), "the reason is shown"
    everything = ec.get(reverse("classifier:inbox"), {"state": "any"}).context["page"].rows
    assert {r.state for r in everything if r.article.pk == failed.pk} == {"failed"}


def test_a_re_publication_is_a_duplicate_in_the_inbox_not_unreviewed(ec, sport_kb, site):
    """A site registered again under another spelling of its home page: its articles are re-publications of the
    first site's (processing: same core text), with no case of their own. The inbox called them "unreviewed",
    and its Unreviewed filter listed them for ever, though their pages named the original to classify."""
    again = Site.objects.create(name="Daily again", home_url="https://www.daily.example/")
    original = Article.objects.get(pk=sport_kb["vote"].article_id)
    copy = Article.objects.create(
        site=again, url="https://www.daily.example/a/vote", state="duplicate", duplicate_of=original
    )
    unreviewed = ec.get(reverse("classifier:inbox"), {"state": "unreviewed"}).context["page"].rows
    assert [r.article.pk for r in unreviewed] == [original.pk], "the copy is no work for the experts"
    response = ec.get(reverse("classifier:inbox"), {"state": "duplicate"})
    assert [(r.article.pk, r.state) for r in response.context["page"].rows] == [(copy.pk, "duplicate")]
    everything = ec.get(reverse("classifier:inbox"), {"state": "any"}).context["page"].rows
    assert {r.state for r in everything if r.article.pk == copy.pk} == {"duplicate"}
    page = ec.get(reverse("classifier:article", args=[copy.pk])).content.decode()
    badge = re.search(r'<span class="badge (\w+)" id="review-state" title="[^"]*">(\w+)</span>', page)
    assert badge and badge.groups() == ("duplicate", "duplicate"), badge and badge.groups()
    assert f'href="/articles/{original.pk}/"' in page


def test_the_inbox_lists_what_waits_for_review_by_default(ec, sport_kb, site, make_case, expert_user):
    """A live trial: the inbox's default, "Any state", listed re-publications and reviewed articles among the
    work. By default it lists what waits for an expert; every article is one explicit choice away."""
    rejected = make_case("goal cup final")
    services.reject(rejected, sport_kb["football"], expert_user)
    failed = Article.objects.create(site=site, url="https://daily.example/broken", state="failed")
    copy = Article.objects.create(
        site=site,
        url="https://daily.example/a/vote-again",
        state="duplicate",
        duplicate_of=article_of(sport_kb["vote"]),
    )
    waiting = {sport_kb["new"].article_id: "suggested", sport_kb["vote"].article_id: "unreviewed"}
    waiting[rejected.article_id] = "correction"
    inbox = reverse("classifier:inbox")
    for params in ({}, {"site": site.pk}, {"state": ""}, {"state": "waiting"}):
        response = ec.get(inbox, params)
        assert {r.article.pk: r.state for r in response.context["page"].rows} == waiting, params
    html = ec.get(inbox).content.decode()
    assert re.search(r'<option value="waiting" selected>Waiting for review</option>', html)
    everything = {r.article.pk for r in ec.get(inbox, {"state": "any"}).context["page"].rows}
    assert everything == {*waiting, sport_kb["stone"].article_id, failed.pk, copy.pk}
    assert [r.article.pk for r in ec.get(inbox, {"state": "duplicate"}).context["page"].rows] == [copy.pk]
    reviewed = ec.get(inbox, {"state": "reviewed"}).context["page"].rows
    assert [r.article.pk for r in reviewed] == [sport_kb["stone"].article_id]
    # an article opened from the default inbox walks the same view
    page = ec.get(reverse("classifier:article", args=[sport_kb["vote"].article_id]))
    assert page.context["position"].total == len(waiting)


def test_a_failed_article_s_page_says_failed_with_the_reason_as_the_inbox_does(ec, site):
    failed = Article.objects.create(
        site=site, url="https://daily.example/private/notes.html", state="failed", last_error="disallowed by robots.txt"
    )
    page = ec.get(reverse("classifier:article", args=[failed.pk])).content.decode()
    badge = re.search(r'<span class="badge (\w+)" id="review-state" title="([^"]*)">(\w+)</span>', page)
    assert badge and badge.groups() == ("failed", "disallowed by robots.txt", "failed"), badge and badge.groups()


@pytest.mark.django_db
def test_inbox_keyset_pages_cover_every_article_once(ec, site):
    from classifier import selectors

    n = selectors.PAGE_SIZE * 2 + 7
    Article.objects.bulk_create([Article(site=site, url=f"https://d.example/p/{i}", title=f"p{i}") for i in range(n)])
    every = {"state": "any"}  # not processed (no case): not waiting for review, listed under any state
    seen, query = [], every
    for _ in range(5):
        page = ec.get(reverse("classifier:inbox"), query).context["page"]
        seen += [r.article.pk for r in page.rows]
        if not page.next_cursor:
            break
        query = {**every, "after": page.next_cursor.encode()}
    assert len(seen) == len(set(seen)) == Article.objects.count()
    # and back: the previous page of the second page is the first page
    first = ec.get(reverse("classifier:inbox"), every).context["page"]
    second = ec.get(reverse("classifier:inbox"), {**every, "after": first.next_cursor.encode()}).context["page"]
    back = ec.get(reverse("classifier:inbox"), {**every, "before": second.prev_cursor.encode()}).context["page"]
    assert [r.article.pk for r in back.rows] == [r.article.pk for r in first.rows]


@pytest.mark.django_db
def test_inbox_filters_by_site_and_rejects_inverted_dates(ec, sport_kb, site):
    from monitor.models import Site

    other = Site.objects.create(name="Other", home_url="https://other.example/")
    Article.objects.create(site=other, url="https://other.example/1", title="elsewhere", state="processed")
    rows = ec.get(reverse("classifier:inbox"), {"site": other.pk}).context["page"].rows
    assert [r.article.title for r in rows] == ["elsewhere"]
    response = ec.get(reverse("classifier:inbox"), {"date_from": "2030-01-02", "date_to": "2030-01-01"})
    assert b"is after" in response.content


# --------------------------------------------------------------------------- article page
@pytest.mark.django_db
def test_article_page_escapes_core_text_and_shows_why(ec, sport_kb):
    article = article_of(sport_kb["new"])
    ArticleContent.objects.update_or_create(
        article=article, defaults={"core_text": 'Goal! <script>alert("x")</script>\njavascript stays text'}
    )
    article.url = "javascript:alert(1)"
    article.save()
    html = ec.get(reverse("classifier:article", args=[article.pk])).content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert 'href="javascript:' not in html  # an unsafe original URL is not a link
    assert "Sport/Football" in html
    assert f"rule {sport_kb['rule'].pk}" in html and "goal → Sport/Football" in html
    for key in ("<kbd>a</kbd>", "<kbd>s</kbd>", "<kbd>r</kbd>", "<kbd>c</kbd>", "<kbd>m</kbd>"):
        assert key in html


@pytest.mark.django_db
def test_the_core_text_reads_as_paragraphs_one_per_block(ec, sport_kb):
    """A live trial: the core text keeps one block (paragraph, subhead, list item) per line, and linebreaks made
    them one paragraph of plain lines with no spacing between them."""
    article = article_of(sport_kb["new"])
    text = "Clinics open in Elmstead.\nNurses will see <b>patients</b> at home.\n\nWhat happens next"
    ArticleContent.objects.update_or_create(article=article, defaults={"core_text": text})
    html = ec.get(reverse("classifier:article", args=[article.pk])).content.decode()
    core = html.split('id="core-text">', 1)[1].split("</div>", 1)[0]
    assert core.count("<p>") == 3 and "<br>" not in core
    assert "<p>Nurses will see &lt;b&gt;patients&lt;/b&gt; at home.</p>" in core


@pytest.mark.django_db
def test_article_page_shows_docview_elements_escaped_and_copes_without_them(ec, sport_kb):
    article = article_of(sport_kb["new"])
    url = reverse("classifier:article", args=[article.pk])
    before = ec.get(url).content.decode()  # processed before DocView: no abstract, keywords or links
    assert 'id="abstract"' not in before and 'id="keywords"' not in before and 'id="relevant-links"' not in before
    ArticleContent.objects.update_or_create(
        article=article,
        defaults={
            "abstract": "The <b>final</b> went to extra time.",
            "keywords": [["final", 0.61], ["<script>", 0.2]],
            "relevant_links": [
                ["https://league.example/report?a=1&utm_source=x&b=2&ref=home", "the <i>match</i> report"],
                ["javascript:alert(1)", "not a link"],
            ],
        },
    )
    html = ec.get(url).content.decode()
    assert "The &lt;b&gt;final&lt;/b&gt; went to extra time." in html
    assert 'final <span class="muted">0.61</span>' in html and "&lt;script&gt;" in html and "<script>" not in html
    assert (
        '<a href="https://league.example/report?a=1&amp;b=2" target="_blank" rel="nofollow noopener noreferrer">'
        "the &lt;i&gt;match&lt;/i&gt; report</a>"
    ) in html
    assert "javascript:alert" not in html and "not a link" not in html


@pytest.mark.django_db
def test_accept_all_and_selected(ec, sport_kb, expert_user):
    article = article_of(sport_kb["new"])
    url = reverse("classifier:accept", args=[article.pk])
    response = ec.post(url, {"selected": "1"})  # nothing selected
    assert response.status_code == 302
    assert not Classification.objects.filter(case=sport_kb["new"], state="accepted").exists()
    ec.post(url, {"selected": "1", "folder": [sport_kb["football"].pk]})
    row = Classification.objects.get(case=sport_kb["new"], folder=sport_kb["football"])
    assert row.state == "accepted" and row.decided_by == expert_user


@pytest.mark.django_db
def test_reject_starts_a_stopping_rule(ec, sport_kb):
    article = article_of(sport_kb["new"])
    response = ec.post(reverse("classifier:reject", args=[article.pk]), {"folder": sport_kb["football"].pk})
    assert response.status_code == 302
    assert "kind=stop" in response["Location"] and f"wrong={sport_kb['football'].pk}" in response["Location"]
    assert Classification.objects.get(case=sport_kb["new"], folder=sport_kb["football"]).state == "rejected"
    response = ec.post(
        reverse("classifier:reject", args=[article.pk]), {"folder": sport_kb["football"].pk, "kind": "refine"}
    )
    assert "kind=refine" in response["Location"]


@pytest.mark.django_db
def test_move_translates_into_a_refining_rule(ec, sport_kb):
    article = article_of(sport_kb["new"])
    response = ec.post(
        reverse("classifier:move", args=[article.pk]),
        {"from_folder": sport_kb["football"].pk, "to_folder": sport_kb["politics"].pk},
    )
    location = response["Location"]
    assert "kind=refine" in location and f"folder={sport_kb['politics'].pk}" in location
    response = ec.post(
        reverse("classifier:move", args=[article.pk]),
        {"from_folder": sport_kb["football"].pk, "to_folder": sport_kb["politics"].pk, "copy": "on"},
    )
    assert "kind=new" in response["Location"]


# --------------------------------------------------------------------------- rule building
@pytest.mark.django_db
def test_rule_page_shows_cornerstone_and_difference_list(ec, sport_kb):
    article = article_of(sport_kb["new"])
    url = reverse("classifier:rule", args=[article.pk])
    response = ec.get(url, {"kind": "new", "folder": sport_kb["politics"].pk, "c": "goal"})
    assert response.status_code == 200
    validation = response.context["validation"]
    # "goal" alone would also put the football cornerstone into Politics
    assert [s.case.pk for s in validation.cornerstone_cases] == [sport_kb["stone"].pk]
    assert set(validation.difference_list) == {"election", "match", "vote"}
    # selecting the cornerstone as "must not change" recomputes the difference list (the check endpoint)
    check = ec.post(
        reverse("classifier:rule_check", args=[article.pk]),
        {"kind": "new", "folder": sport_kb["politics"].pk, "c": "goal", "sel": sport_kb["stone"].pk},
    )
    assert check.status_code == 200
    assert check.context["validation"].difference_list == ["election", "vote"]
    assert b"<html" not in check.content  # a partial, not a page


def _words(html: str, list_id: str) -> list[str]:
    """The words of one difference list on the page, in the page's order."""
    block = html.split(f'id="{list_id}"', 1)[1].split("</div>", 1)[0]
    return re.findall(r'<input type="checkbox" name="[cx]" value="([^"]*)"', block)


@pytest.mark.django_db
def test_the_rule_page_s_keyword_counts_say_what_each_counts(ec, folders, make_case):
    """A live trial: the difference list's heading said "(203)" and the article's side "205 keywords" for the
    same article: the list leaves out the keywords already conditions of the rule. Each count now says so."""
    case = make_case([f"w{n:02}" for n in range(10)])
    url = reverse("classifier:rule", args=[case.article_id])
    html = ec.get(url, {"kind": "new", "folder": folders["economy"].pk, "c": ["w00", "w01"]}).content.decode()
    assert "10 keywords in all" in html
    assert 'Conditions: keywords of this article <span class="muted">(8 not in the rule yet, of 10)</span>' in html
    searched = ec.post(
        reverse("classifier:rule_check", args=[case.article_id]),
        {"kind": "new", "folder": folders["economy"].pk, "c": ["w00", "w01"], "q": "w0"},
    ).content.decode()
    assert "(8 found of 8 not in the rule yet, of 10)" in searched
    html = ec.get(url, {"kind": "new", "folder": folders["economy"].pk}).content.decode()
    assert 'Conditions: keywords of this article <span class="muted">(10)</span>' in html


@pytest.mark.django_db
def test_rule_page_ranks_both_difference_lists_and_searches_the_rest(ec, folders, make_case, expert_user):
    """The best 20 words of each direction first (not the alphabet's first), every other one by search."""
    stone = make_case(["shared", "only-in-stone", *(f"s{n:02}" for n in range(30))])
    services.commit_rule(stone, "new", expert_user, folder=folders["sport"], conditions=["shared"])
    case = make_case(["shared", "<b>bold</b>", "zebra", *(f"w{n:02}" for n in range(30))])
    url = reverse("classifier:rule", args=[case.article_id])
    response = ec.get(url, {"kind": "new", "folder": folders["economy"].pk})
    html = response.content.decode()
    conditions, absent = _words(html, "difference-list"), _words(html, "absent-list")
    assert len(conditions) == 20 and len(absent) == 20
    assert "shared" not in conditions  # it excludes no cornerstone case: ranked after every word that does
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold</b>" not in html  # keywords are untrusted text
    # 33 keywords (13 more), 31 words of the cornerstone case it lacks (11 more); its own card: 32 and 31
    assert re.findall(r"… (\d+) more", html) == ["13", "11", "12", "11"]
    # the search finds words beyond the first 20 in both lists, and a word that excludes nothing
    check = ec.post(
        reverse("classifier:rule_check", args=[case.article_id]),
        {"kind": "new", "folder": folders["economy"].pk, "q": "ZEB"},
    )
    assert _words(check.content.decode(), "difference-list") == ["zebra"]
    check = ec.post(
        reverse("classifier:rule_check", args=[case.article_id]),
        {"kind": "new", "folder": folders["economy"].pk, "q": "only"},
    )
    assert _words(check.content.decode(), "absent-list") == ["only-in-stone"]
    assert check.context["words"]["conditions"]["found"] == 0


def _suggested(html: str) -> tuple[list[str], str]:
    """The suggested rule's words and the text of its reach, as the page shows them."""
    block = html.split('id="suggested-rule"', 1)[1].split("</p>", 1)[0]
    words = re.search(r'name="use" value="([^"]*)"', block)
    reach = re.search(r'id="suggested-reach">([^<]*)<', block)
    return (words.group(1).split("|") if words else []), " ".join(reach.group(1).split()) if reach else ""


@pytest.mark.django_db
def test_the_suggested_rule_leads_with_the_subject_not_the_town_and_says_how_far_it_reaches(
    ec, folders, make_case, expert_user, monkeypatch
):
    """Issue 30: "IF elmstead" (the town the story is set in) and "IF diabetes" (which six stored articles
    mention, most in passing) were offered; the page now offers a rule specific to the article and says how
    many other stored articles it would file, how many are there already and accepted elsewhere."""
    health = services.create_folder("Health", expert_user)
    case = make_case(["diabetes", "clinics", "elmstead", "nurses", "board"])
    ArticleContent.objects.update_or_create(
        article=article_of(case),
        defaults={
            "core_text": "More diabetes clinics for Elmstead. Health leaders in Elmstead said nurses were found.",
            "keywords": [["elmstead", 3.0], ["diabetes", 2.5], ["clinics", 2.0], ["nurses", 1.5]],
        },
    )
    clinic_here, clinic_there = make_case("diabetes clinics oakley"), make_case("diabetes clinics larkhill")
    passing = [make_case("diabetes heart exercise") for _ in range(4)]
    town = [make_case("elmstead council road") for _ in range(5)]
    # an expert filed one clinic story (and one Elmstead story) in Health, the other ones in Politics
    for stored, folder in ((clinic_here, health), (clinic_there, folders["politics"])):
        Classification.objects.create(case=stored, folder=folder, state=Classification.State.ACCEPTED)
    for stored, folder in ((town[0], health), (town[1], folders["politics"])):
        Classification.objects.create(case=stored, folder=folder, state=Classification.State.ACCEPTED)
    url = reverse("classifier:rule", args=[case.article_id])
    html = ec.get(url, {"kind": "new", "folder": health.pk}).content.decode()
    assert _words(html, "difference-list")[:3] == ["elmstead", "diabetes", "clinics"]  # the ranking as before
    assert _suggested(html) == (
        ["diabetes", "clinics"],
        "would also file 2 other stored articles (1 already there, 1 accepted in another folder)",
    )
    assert len(passing) == 4  # "diabetes" alone would have filed them too
    # past REACH_READ cases the page tells their count alone (a new rule fires on every case holding its words)
    monkeypatch.setattr(validation_service, "REACH_READ", 1)
    html = ec.get(url, {"kind": "new", "folder": health.pk}).content.decode()
    assert _suggested(html) == (["diabetes", "clinics"], "would also file 2 other stored articles")
    monkeypatch.undo()
    # a rule that reaches no other stored article says so
    lone = make_case(["zebra", "giraffe"])
    html = ec.get(reverse("classifier:rule", args=[lone.article_id]), {"kind": "new", "folder": health.pk})
    words, reach = _suggested(html.content.decode())
    assert words and reach == "files no other stored article"


@pytest.mark.django_db
def test_a_suggested_stopping_rule_names_a_word_of_the_article_the_folders_articles_lack(
    ec, folders, make_case, expert_user, monkeypatch
):
    """The live trial: rejecting Health/Sleep on "Demand for weight-loss injections" offered "IF clinics THEN
    withhold Health/Sleep", which would hide the folder from every sleep-clinic story: the stored decisions make
    a common word sure for a stopping rule. The page now leads with the article's own keyword the fewest
    articles the Sleep rule fires on hold (counted among those, not among every stored article)."""
    sleep = services.create_folder("Health/Sleep", expert_user)
    stone = make_case("sleep apnoea insomnia")
    services.commit_rule(stone, "new", expert_user, folder=sleep, conditions=["sleep"])
    case = make_case(["injections", "weight", "obesity", "clinics", "sleep", "years", "said", "people", "health"])
    ArticleContent.objects.update_or_create(
        article=article_of(case),
        defaults={
            "core_text": "Demand for weight-loss injections grows. Clinics say they may help sleep apnoea.",
            "keywords": [["injections", 3.0], ["weight", 2.5], ["obesity", 2.0], ["clinics", 1.5]],
        },
    )
    clinic_stories = [make_case("sleep clinics years apnoea") for _ in range(4)]
    for story in clinic_stories:  # an expert accepted them in Sleep
        Classification.objects.update_or_create(case=story, folder=sleep, defaults={"state": "accepted"})
    make_case("sleep weight obesity insomnia")  # a Sleep story mentioning weight and obesity
    # stories in other folders: the common words (and, in five, injections) but never sleep
    for n in range(6):
        other = make_case("clinics years said people health" + (" injections" if n < 5 else ""))
        Classification.objects.create(case=other, folder=folders["politics"], state=Classification.State.ACCEPTED)
    url = reverse("classifier:rule", args=[case.article_id])
    html = ec.get(url, {"kind": "stop", "wrong": sleep.pk}).content.decode()
    # the list counts the decisions only on the articles the Sleep rule files (the ones a stopping rule can
    # change): there every article holding "clinics" or "years" is rightly in Sleep, so they come last; counted
    # over every stored article (as before), the Politics stories made them and "said", "people", "health" sure
    listed = _words(html, "difference-list")
    assert listed[:3] == ["injections", "weight", "obesity"]  # no decision on them there: the keywords' order
    assert listed.index("clinics") > listed.index("said") and listed.index("years") > listed.index("health")
    # five stored articles hold "injections", but none of those the Sleep rule fires on: the heaviest keyword
    assert _suggested(html) == (["injections"], "withholds it from no other stored article")
    assert len(clinic_stories) == 4  # "IF clinics" would have withheld Sleep from them
    # past REACH_READ articles the Sleep rule may fire on, the stored articles holding a keyword count: the
    # five holding "injections" are too many, "weight" (held by one) leads
    monkeypatch.setattr(validation_service, "REACH_READ", 1)
    html = ec.get(url, {"kind": "stop", "wrong": sleep.pk}).content.decode()
    assert _suggested(html) == (["weight"], "would also withhold it from 1 other stored article")


@pytest.mark.django_db
def test_a_new_subfolder_s_list_counts_no_decision_made_before_it_existed(ec, make_case, expert_user):
    """A live trial: two insomnia stories accepted in Health/Sleep, then Health/Sleep/Insomnia made for a third:
    "insomnia" was 0 % sure for the new folder (its articles sat in the parent), words no decision had seen ranked
    above it and the suggested rule was "IF course". Decisions above a folder made before it existed are no
    evidence against it; one made after it existed still is."""
    sleep = services.create_folder("Health/Sleep", expert_user)

    def accepted(case):  # as an expert's acceptance stores it: decided now
        Classification.objects.create(case=case, folder=sleep, state="accepted", decided_at=timezone.now())

    for words in ("insomnia nights sleep", "insomnia clinic sleep"):
        accepted(make_case(words))
    insomnia = services.create_folder("Health/Sleep/Insomnia", expert_user)
    case = make_case(["insomnia", "course", "years", "sleep"])
    ArticleContent.objects.update_or_create(
        article=article_of(case), defaults={"core_text": "Insomnia course.", "keywords": [["insomnia", 3.0]]}
    )
    url = reverse("classifier:rule", args=[case.article_id])
    html = ec.get(url, {"kind": "new", "folder": insomnia.pk}).content.decode()
    assert _words(html, "difference-list")[0] == "insomnia" and _suggested(html)[0][0] == "insomnia"
    later = make_case("insomnia tablets sleep")  # decided in the parent after the subfolder existed: evidence
    accepted(later)
    html = ec.get(url, {"kind": "new", "folder": insomnia.pk}).content.decode()
    assert _words(html, "difference-list")[0] != "insomnia"


@pytest.mark.django_db
def test_the_rule_page_commits_an_accepted_cornerstone_change_and_refuses_an_undecided_one(ec, sport_kb):
    article = article_of(sport_kb["new"])
    stone, politics = sport_kb["stone"], sport_kb["politics"]
    draft = {"kind": "new", "folder": politics.pk, "c": "goal"}  # would put the football cornerstone in Politics
    page = ec.get(reverse("classifier:rule", args=[article.pk]), draft)
    html = page.content.decode()
    assert f'name="ok" value="{stone.pk}"' in html and 'title="decide on every cornerstone case first"' in html
    count = Rule.objects.count()
    refused = ec.post(reverse("classifier:rule_commit", args=[article.pk]), draft)
    assert refused.status_code == 400 and Rule.objects.count() == count
    # the case is named by its article's title, not by its number
    assert f"would change without your decision (“{escape(article_of(stone).title)}”)" in refused.content.decode()
    accepted = ec.post(reverse("classifier:rule", args=[article.pk]), {**draft, "ok": stone.pk})
    assert accepted.context["validation"].accepted == [stone.pk]
    assert 'title="decide on every cornerstone case first"' not in accepted.content.decode()
    response = ec.post(reverse("classifier:rule_commit", args=[article.pk]), {**draft, "ok": stone.pk})
    assert response.status_code == 302
    assert Classification.objects.get(case=stone, folder=politics).state == "accepted"
    rule = Rule.objects.order_by("-id").first()
    assert set(rule.cornerstones.values_list("id", flat=True)) == {sport_kb["new"].pk, stone.pk}
    detail = ec.get(response["Location"]).content.decode()  # the rule's page names the accepted cornerstone
    listed = detail.split('id="accepted-cornerstones"', 1)[1].split("</ul>", 1)[0]
    assert article_of(stone).title in listed and "Politics" in listed and "accepted by" in listed


@pytest.fixture
def three_stones(sport_kb, make_case, expert_user, monkeypatch):
    """Three cornerstone cases that "goal -> Politics" changes (by id: the football stone, a second, a third),
    and a page that shows two."""
    from classifier.views import rules as rule_views

    football = sport_kb["football"]
    second = make_case("goal penalty striker cup")
    services.commit_rule(second, "new", expert_user, folder=football, conditions=["penalty"])
    third = make_case("goal corner striker derby")
    services.commit_rule(third, "new", expert_user, folder=football, conditions=["corner"])
    monkeypatch.setattr(rule_views, "SHOWN_CASES", 2)
    return sport_kb["stone"], second, third


@pytest.mark.django_db
def test_accept_every_change_shown_accepts_the_cornerstone_cases_on_the_page_not_the_kept_ones(
    ec, sport_kb, three_stones
):
    """Two cornerstone cases would change: one button accepts both (with and without the page's script, the
    button is a submit); a third beyond the page's limit is not accepted unseen."""
    stone, second, third = three_stones
    article = article_of(sport_kb["new"])
    draft = {"kind": "new", "folder": sport_kb["politics"].pk, "c": "goal"}
    page = ec.post(reverse("classifier:rule", args=[article.pk]), draft)
    shown = [s["change"].case.pk for s in page.context["stones"]]
    assert len(shown) == 2 and 'id="accept-shown"' in page.content.decode()
    assert "Accept the 2 changes shown" in page.content.decode()
    button = re.search(r'name="ok_shown" value="([^"]*)"', page.content.decode()).group(1)
    accepted = ec.post(reverse("classifier:rule_check", args=[article.pk]), {**draft, "ok_shown": button})
    assert sorted(accepted.context["validation"].accepted) == sorted(shown)
    html = accepted.content.decode()
    assert all(f'name="ok" value="{pk}" checked' in html for pk in shown)
    hidden = ({stone.pk, second.pk, third.pk} - set(shown)).pop()
    assert f'name="ok" value="{hidden}" checked' not in html, "a change the expert has not seen stays undecided"


@pytest.mark.django_db
def test_accept_the_changes_shown_accepts_those_the_page_showed_not_those_a_changed_draft_would_show(
    ec, sport_kb, three_stones
):
    """Without the page's script a keyword ticked meanwhile is sent with the button: the server then found the
    cases the new draft would show and accepted the third, beyond the page's limit when the expert read it."""
    stone, second, third = three_stones
    article = article_of(sport_kb["new"])
    url = reverse("classifier:rule", args=[article.pk])
    draft = {"kind": "new", "folder": sport_kb["politics"].pk, "c": "goal"}
    page = ec.post(url, draft)
    assert [s["change"].case.pk for s in page.context["stones"]] == [stone.pk, second.pk]
    button = re.search(r'name="ok_shown" value="([^"]*)"', page.content.decode()).group(1)
    # "league" must be absent: the first cornerstone case no longer changes, and the third moves into view
    after = ec.post(url, {**draft, "x": "league", "ok_shown": button})
    assert after.context["validation"].accepted == [second.pk]
    assert f'name="ok" value="{third.pk}" checked' not in after.content.decode()


@pytest.mark.django_db
def test_absent_only_and_bare_stopping_rules_commit_from_the_rule_page(ec, sport_kb):
    """Issue 14, D6/D7 kept with the decisions: a rule of must-be-absent keywords only, and a stopping rule with no
    condition of its own (it changes its parent's cornerstone case, so that change is decided first)."""
    stone, politics, football = sport_kb["stone"], sport_kb["politics"], sport_kb["football"]
    vote = article_of(sport_kb["vote"])
    absent_only = {"kind": "new", "folder": politics.pk, "x": "striker"}
    page = ec.get(reverse("classifier:rule", args=[vote.pk]), absent_only)
    assert page.context["validation"].cornerstone_cases == []  # the football cornerstone holds "striker"
    response = ec.post(reverse("classifier:rule_commit", args=[vote.pk]), absent_only)
    assert response.status_code == 302
    rule = Rule.objects.order_by("-id").first()
    assert (rule.conditions, rule.absent, rule.folder_id) == ([], ["striker"], politics.pk)

    new = article_of(sport_kb["new"])
    bare_stop = {"kind": "stop", "wrong": football.pk}
    page = ec.get(reverse("classifier:rule", args=[new.pk]), bare_stop)
    assert [s.case.pk for s in page.context["validation"].to_exclude] == [stone.pk]
    assert ec.post(reverse("classifier:rule_commit", args=[new.pk]), bare_stop).status_code == 400
    response = ec.post(reverse("classifier:rule_commit", args=[new.pk]), {**bare_stop, "ok": stone.pk})
    assert response.status_code == 302
    stop = Rule.objects.order_by("-id").first()
    assert (stop.conditions, stop.absent, stop.folder_id, stop.parent_id) == ([], [], None, sport_kb["rule"].pk)
    assert Classification.objects.get(case=stone, folder=football).state == "rejected"
    assert Classification.objects.get(case=sport_kb["new"], folder=football).state == "rejected"


@pytest.mark.django_db
def test_rule_check_needs_csrf(expert_user, sport_kb):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(expert_user)
    url = reverse("classifier:rule_check", args=[sport_kb["new"].article_id])
    assert strict.post(url, {"kind": "new", "folder": sport_kb["politics"].pk}).status_code == 403


@pytest.mark.django_db
def test_rule_page_reports_bad_input(ec, sport_kb):
    url = reverse("classifier:rule", args=[sport_kb["new"].article_id])
    response = ec.get(url, {"kind": "new", "folder": "999999", "c": "goal"})
    assert response.status_code == 200 and "there is no folder 999999" in response.content.decode()
    response = ec.get(url, {"kind": "new", "folder": sport_kb["politics"].pk, "c": "notakeyword"})
    assert "lacks" in response.content.decode()


@pytest.mark.django_db
def test_affected_list_and_commit_then_undo(ec, sport_kb, make_case):
    other = make_case("election vote turnout")  # unreviewed, would get Politics too
    article = article_of(sport_kb["new"])
    params = {"kind": "new", "folder": sport_kb["politics"].pk, "c": ["election", "vote"], "affected": "1"}
    response = ec.post(reverse("classifier:rule", args=[article.pk]), params)
    listed = {a["item"].case_id for a in response.context["affected"]}
    assert listed == {sport_kb["vote"].pk, other.pk}

    response = ec.post(reverse("classifier:rule_commit", args=[article.pk]), params)
    rule = Rule.objects.order_by("-id").first()
    assert response.status_code == 302 and response["Location"] == reverse("classifier:rule_detail", args=[rule.pk])
    detail = ec.get(response["Location"])
    html = detail.content.decode()
    assert "Rule committed" in html
    assert f"Rule {rule.pk} committed: 2 other stored articles reclassified." in html  # no "article(s)"
    assert {item["article"].pk for item in detail.context["affected"]} == {
        sport_kb["vote"].article_id,
        other.article_id,
    }
    assert Classification.objects.get(case=sport_kb["new"], folder=sport_kb["politics"]).state == "accepted"
    assert Classification.objects.get(case=other, folder=sport_kb["politics"]).state == "suggested"
    # a live trial: opened again later, the page was still "Rule committed" and said nothing of what the rule
    # does now. Once: the commit's page; after: the rule's, with what it files now beside the commit's list
    again = ec.get(response["Location"]).content.decode()
    assert "Rule committed" not in again and f"<h1>Rule {rule.pk}</h1>" in again
    assert "It files <strong>3</strong> articles in Politics now" in again
    assert "Other articles its commit reclassified (" in again

    undo = reverse("classifier:rule_undo")
    assert ec.post(undo).status_code == 400  # which rule? never "whatever is last"
    # a live trial: the undo asked nothing. Now a confirm step first says what changes back: the two other
    # articles it reclassified and the cornerstone case it was committed on
    for asked in (ec.get(reverse("classifier:rule_undo"), {"rule": rule.pk}), ec.post(undo, {"rule": rule.pk})):
        html = asked.content.decode()
        assert asked.status_code == 200 and 'id="undo-confirm"' in html and 'name="confirm"' in html
        assert "<strong>3 articles</strong> change back" in html
    assert Rule.objects.filter(pk=rule.pk).exists(), "asked, not undone"
    response = ec.post(reverse("classifier:rule_undo"), {"rule": rule.pk, "confirm": "1"})
    assert response["Location"] == reverse("classifier:article", args=[article.pk])
    assert not Rule.objects.filter(pk=rule.pk).exists()
    assert not Classification.objects.filter(case=other, folder=sport_kb["politics"]).exists()


@pytest.mark.django_db
def test_commit_without_conditions_is_refused(ec, sport_kb):
    article = article_of(sport_kb["new"])
    count = Rule.objects.count()
    response = ec.post(
        reverse("classifier:rule_commit", args=[article.pk]), {"kind": "new", "folder": sport_kb["politics"].pk}
    )
    assert response.status_code == 400 and Rule.objects.count() == count
    assert "at least one keyword" in response.content.decode()


@pytest.mark.django_db
def test_the_rule_page_carries_the_version_it_checked_and_a_stale_commit_is_refused(ec, sport_kb):
    from classifier import kb

    article = article_of(sport_kb["new"])
    version = kb.version()
    page = ec.get(reverse("classifier:rule", args=[article.pk]), {"kind": "new", "folder": sport_kb["politics"].pk})
    assert f'name="version" value="{version}"' in page.content.decode()
    count = Rule.objects.count()
    stale = {"kind": "new", "folder": sport_kb["politics"].pk, "c": ["election"], "version": version - 1}
    response = ec.post(reverse("classifier:rule_commit", args=[article.pk]), stale)
    assert response.status_code == 400 and Rule.objects.count() == count
    assert "changed since this rule was checked" in response.content.decode()
    response = ec.post(reverse("classifier:rule_commit", args=[article.pk]), {**stale, "version": version})
    assert response.status_code == 302 and Rule.objects.count() == count + 1


@pytest.mark.django_db
def test_stopping_rule_from_reject(ec, sport_kb):
    article = article_of(sport_kb["new"])
    ec.post(reverse("classifier:reject", args=[article.pk]), {"folder": sport_kb["football"].pk})
    params = {"kind": "stop", "wrong": sport_kb["football"].pk, "c": ["election"]}
    response = ec.post(reverse("classifier:rule_commit", args=[article.pk]), params)
    assert response.status_code == 302
    stop = Rule.objects.order_by("-id").first()
    assert stop.folder is None and stop.parent_id == sport_kb["rule"].pk
    html = ec.get(reverse("classifier:article", args=[article.pk])).content.decode()
    # one account of the rejected folder: the expert's decision and the stopping rule, never "no rule gives it"
    row = html.split(f'data-folder="{sport_kb["football"].pk}"', 1)[1].split("</div>", 1)[0]
    assert "Rejected by " in row and "withheld by the stopping" in row and f"rule {stop.pk}" in row
    assert "no rule gives this folder now" not in html and "Withheld: Sport/Football" not in html


@pytest.mark.django_db
def test_a_stopping_rule_page_opens_on_the_folder_its_rejection_waits_for(ec, sport_kb):
    """A live trial opened /articles/<id>/rule?kind=stop with one rejection waiting and had to choose the wrong
    folder again; with none waiting, the page still asks for it."""
    article = article_of(sport_kb["new"])
    url = reverse("classifier:rule", args=[article.pk])
    assert ec.get(url, {"kind": "stop"}).context["draft"].wrong is None
    ec.post(reverse("classifier:reject", args=[article.pk]), {"folder": sport_kb["football"].pk})
    response = ec.get(url, {"kind": "stop"})
    assert response.context["draft"].wrong == sport_kb["football"].pk
    assert "Choose the wrong folder" not in response.content.decode()
