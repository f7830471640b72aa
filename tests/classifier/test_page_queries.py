"""How much the inbox and the article page cost: a fixed number of queries however many rows, folders and rules
they show, and the markup of the parts written in Python for speed (QuickSelect, id_url) as Django writes it."""

import pytest
from django.urls import reverse

from classifier import services
from monitor.models import Site
from tests.classifier.conftest import article_of

#: The inbox's queries: session, user, role, the experts (both pickers), the page's articles with their sites and
#: assignees, their folders, the reader's read marks, the capped count, the sites' choices. It was 11 with the
#: assignees read apart and the sites read through a server-side cursor (three statements on PostgreSQL).
INBOX_QUERIES = 9


@pytest.mark.django_db
def test_the_inbox_asks_a_fixed_number_of_queries_however_many_rows(ec, sport_kb, expert_user, make_case):
    """A page of assigned, read and unread articles with folders asks the same queries as a page of one: no
    query a row, and none of the row's parts read apart again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("classifier:inbox")
    counts = []
    for _ in range(2):
        ec.get(url, {"state": "any"})  # the first request of a client loads what every later one reuses
        with CaptureQueriesContext(connection) as captured:
            html = ec.get(url, {"state": "any"}).content.decode()
        counts.append(len(captured))
        for words in ("goal late winner", "goal keeper", "match report"):
            make_case(words)
        services.bulk_assign([sport_kb["new"].article_id], expert_user, expert_user)
        services.mark_read([sport_kb["new"].article_id], expert_user)
    assert counts == [INBOX_QUERIES, INBOX_QUERIES]
    assert 'class="assignee" title="assigned to ada"' in html and 'class="unread"' in html


#: The article page's queries (SQLite, as the tests run): session, user, role, the article with its case and its
#: assignment's usernames, the view's experts, the last rule, the knowledge base's row, the classifications, the
#: explanation's rules with their folders, the pending corrections, the view position (one statement), the last
#: rule's commit entry, the read mark (one INSERT), the move form's folders. It was 32 when the knowledge base, the
#: experts, the last rule and the classifications were read twice, 20 with the knowledge base's row in a savepoint,
#: the explanation's folders, the assignment and the corrections badge read apart and the read mark two queries.
ARTICLE_PAGE_QUERIES = 14


@pytest.mark.django_db
def test_the_article_page_reads_each_thing_once(ec, sport_kb, expert_user, django_assert_max_num_queries):
    """An article with a suggestion, a decision, an assignment and the expert's own last rule, opened in a
    view: a fixed number of queries, with nothing read twice (the knowledge base, the experts, the last rule,
    the article's classifications), so that the page cannot grow back a query at a time unnoticed."""
    services.accept(sport_kb["new"], expert_user, [sport_kb["football"].pk])
    services.bulk_assign([sport_kb["new"].article_id], expert_user, expert_user)
    article = article_of(sport_kb["new"])
    url = reverse("classifier:article", args=[article.pk])
    ec.get(url, {"view": "state=any"})  # the first request of a client loads what every later one reuses
    with django_assert_max_num_queries(ARTICLE_PAGE_QUERIES):
        page = ec.get(url, {"view": "state=any"})
    html = page.content.decode()
    assert page.context["position"].text == "2 of 3 in this view"
    assert page.context["position"].older and page.context["position"].newer
    assert [r["what"] for r in page.context["review"]] == ["Accepted Sport/Football", "Assigned to ada"]
    assert page.context["experts"] == [(str(expert_user.pk), "ada")]
    assert page.context["undo_refused"] == "" and 'id="undo-last">' in html


@pytest.mark.django_db
def test_the_article_page_s_folder_links_and_reject_forms(ec, sport_kb):
    """Each suggestion links its folder and its rules (id_url: reversed once a page, not once a link) and rejects
    through a form that carries the view the article was opened in."""
    from django.template import Context, Template

    article = article_of(sport_kb["new"])
    html = ec.get(reverse("classifier:article", args=[article.pk]), {"view": "state=any&site=1"}).content.decode()
    folder, rule = sport_kb["football"], sport_kb["rule"]
    assert f'<a class="folder" href="{reverse("classifier:folder", args=[folder.pk])}">Sport/Football</a>' in html
    assert f'<a href="{reverse("classifier:rule_detail", args=[rule.pk])}">rule {rule.pk}</a>' in html
    reject = f'<form method="post" action="{reverse("classifier:reject", args=[article.pk])}" id="reject-1">'
    assert reject in html
    form = html[html.index(reject) : html.index("</form>", html.index(reject))]
    assert '<input type="hidden" name="view" value="state=any&amp;site=1">' in form
    assert f'<input type="hidden" name="folder" value="{folder.pk}">' in form
    made = Template("{% load workspace %}{% id_url 'classifier:rule_detail' 7 %} {% id_url 'classifier:folder' 12 %}")
    assert (
        made.render(Context())
        == f"{reverse('classifier:rule_detail', args=[7])} {reverse('classifier:folder', args=[12])}"
    )


@pytest.mark.django_db
def test_the_inbox_s_filter_selects_render_as_django_s_selects(expert_user):
    """The inbox's four filter selects are rendered in Python too (QuickSelect; the sites read by one plain query,
    not a server-side cursor): the same HTML as Django's Select, with the chosen option selected."""
    from django import forms
    from django.test.html import parse_html

    from classifier.forms import InboxFilterForm

    sites = [Site.objects.create(name=n, home_url=f"https://{i}.example/") for i, n in enumerate(["B & <b>", "A"])]
    for data in (None, {"site": str(sites[0].pk), "state": "pending", "assigned": "me", "reading": "unread"}):
        form = InboxFilterForm(data)
        for name in ("site", "state", "assigned", "reading"):
            bound = form[name]
            attrs = bound.build_widget_attrs({"id": bound.auto_id})
            django_html = forms.Select(choices=bound.field.choices).render(bound.html_name, bound.value(), attrs)
            assert parse_html(str(bound)) == parse_html(django_html), (name, data)
    assert "selected>B &amp; &lt;b&gt;</option>" in str(InboxFilterForm({"site": str(sites[0].pk)})["site"])


def test_the_move_form_s_quick_select_renders_as_django_s_select():
    """The move form's selects are rendered in Python (the page's slowest part through Django's templates): the
    same HTML, with a selected option, escaped labels and the field's attributes."""
    from django import forms
    from django.test.html import parse_html

    from classifier.forms import QuickSelect

    choices = [("", "(no folder)"), (1, "Health"), (2, 'Health/<b>"Diet"</b> & more')]
    for value in (None, 2, "2"):
        for attrs in ({"id": "id_to_folder", "required": True}, {"id": "x", "required": False, "data-n": "1"}):
            django_html = forms.Select(choices=choices).render("to_folder", value, attrs)
            quick_html = QuickSelect(choices=choices).render("to_folder", value, attrs)
            assert parse_html(quick_html) == parse_html(django_html), (value, attrs)
