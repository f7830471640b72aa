"""The article page's folder blocks, written in Python (classifier/templatetags/workspace.py suggestion_blocks): the
same HTML as the template wrote, escaping included (folder names are experts' text, rule conditions an article's
words, the view and the search the request's)."""

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.test.html import parse_html

from classifier import selectors, services
from classifier.models import Classification, Correction, Folder, Rule
from tests.classifier.conftest import article_of

#: the folder blocks as templates/classifier/article.html wrote them before suggestion_blocks did
BLOCKS_TEMPLATE = """{% load workspace %}
      {% url 'classifier:reject' article.pk as reject_url %}{# the loop's pieces made once: a folder a row, 20 rows #}
      {% for s in suggestions %}
      <div class="suggestion" data-folder="{{ s.folder.pk }}">
        <header>
          {% if s.row and s.row.state != "accepted" %}
            <input type="checkbox" name="folder" value="{{ s.folder.pk }}" form="accept-selected" data-index="{{ forloop.counter }}" id="pick-{{ s.folder.pk }}" aria-label="select {{ s.folder.path }}">
            <label for="pick-{{ s.folder.pk }}"><kbd>{{ forloop.counter }}</kbd></label>
          {% endif %}
          <a class="folder" href="{% id_url 'classifier:folder' s.folder.pk %}">{{ s.folder.path }}</a>
          {% if s.correction %}<span class="badge correction" title="{{ "correction"|folder_state:"meaning" }}">{{ "correction"|folder_state }}</span>{% elif s.row %}<span class="badge {{ s.row.state }}" title="{{ s.row.state|folder_state:"meaning" }}">{{ s.row.state|folder_state }}</span>{% endif %}
          {% if s.rules and s.row.state != "rejected" %}
          <span class="tools">
            <form method="post" action="{{ reject_url }}" id="reject-{{ forloop.counter }}">{% csrf_token %}{% if view %}<input type="hidden" name="view" value="{{ view }}">{% endif %}{% if origin %}<input type="hidden" name="origin" value="{{ origin }}">{% endif %}{% for name, value in from_search.items %}<input type="hidden" name="{{ name }}" value="{{ value }}">{% endfor %}{# _view_field.html's fields, written here: an include a row cost more than the row #}
              <input type="hidden" name="folder" value="{{ s.folder.pk }}">
              <button type="submit" name="kind" value="stop" class="danger" title="Reject and make a stopping rule">Reject</button>
              <button type="submit" name="kind" value="refine" title="Reject and make a refining rule to the right folder">Wrong → …</button>
            </form>
          </span>
          {% endif %}
        </header>
        {% if s.correction %}{% with c=s.correction %}
        <div class="correction" id="correction-{{ c.pk }}">
          <p class="why">Rejected by {{ c.rejected_by.get_username|default:"(unknown)" }} on {{ c.rejected_at|date:"j M Y H:i" }}; the knowledge base still gives this folder until a rule corrects it.</p>
          <a class="button" href="{% url 'classifier:rule' article.pk %}?kind={{ c.kind }}&amp;wrong={{ c.folder_id }}{% if return_query %}&amp;{{ return_query }}{% endif %}">Make the {{ c.get_kind_display }} rule</a>
          <form method="post" action="{% url 'classifier:correction_withdraw' c.pk %}" class="inline-form">{% csrf_token %}
            <input type="hidden" name="next" value="{{ request.get_full_path }}">
            <button type="submit">Withdraw the rejection</button>
          </form>
        </div>
        {% endwith %}{% endif %}
        {% if s.rules %}
        <ul class="why" aria-label="why">
          {% for r in s.rules %}<li><a href="{% id_url 'classifier:rule_detail' r.pk %}">rule {{ r.pk }}</a> <span class="muted">({{ r|rule_kind }})</span> <code>{{ r|rule_text }}</code></li>{% endfor %}
        </ul>
        {% elif s.row %}
        <p class="why">{% if s.row.decided_by %}{{ s.row.state|folder_state|capfirst }} by {{ s.row.decided_by.get_username }}{% else %}Set by hand{% endif %};
          {% if s.stopped_by %}{% with stop=s.stopped_by|last %}withheld by the stopping <a href="{% id_url 'classifier:rule_detail' stop.pk %}">rule {{ stop.pk }}</a> <code>{{ stop|rule_text }}</code>{% endwith %}{% else %}no rule gives this folder now{% endif %}.</p>
        {% endif %}
      </div>
      {% empty %}
      <p class="muted">No folder suggested: no rule fires for this article. Add the folder it belongs in with a new rule.</p>
      {% endfor %}
"""  # noqa: E501


def both(context: dict) -> tuple:
    """(the template's blocks, the tag's), parsed: equal when they are the same HTML, whitespace aside."""
    old = Template(BLOCKS_TEMPLATE).render(Context(context))
    new = Template("{% load workspace %}{% suggestion_blocks %}").render(Context(context))
    return parse_html(old), parse_html(new), new


def test_the_folder_blocks_are_the_markup_the_template_wrote_with_hostile_text():
    """Every kind of block (suggested, accepted, rejected with a pending correction, decided by hand, withheld by
    a stopping rule, no rule left), with markup in every text a block shows: the same HTML, escaped alike."""
    from django.contrib.auth import get_user_model

    from monitor.models import Article

    user = get_user_model()
    ada, anon = user(pk=3, username='ada<"&>'), None
    when = datetime(2026, 3, 5, 9, 7, tzinfo=UTC)
    folders = [Folder(pk=10 + i, name=f"f{i}", path=f'Topic <b>{i}</b>/"Sub" & {i}') for i in range(6)]
    ground = Rule(pk=21, parent_id=None, folder=folders[0], conditions=["<script>alert(1)</script>", "title:a&b"])
    refine = Rule(pk=22, parent_id=21, folder=folders[1], conditions=['site:x"y.example'], absent=["<i>"])
    stop = Rule(pk=23, parent_id=21, folder=None, conditions=["url:/a?b=<c>"])

    def row(i, state, by=None):
        return Classification(pk=40 + i, folder=folders[i], state=state, decided_by=by, decided_at=when)

    correction = Correction(pk=51, folder=folders[2], kind="refine", rejected_by=ada, rejected_at=when, state="pending")
    unknown = Correction(pk=52, folder=folders[3], kind="stop", rejected_by=anon, rejected_at=when)
    suggestions = [
        {"folder": folders[0], "rules": [ground], "row": row(0, "suggested"), "stopped_by": []},
        {"folder": folders[1], "rules": [ground, refine], "row": row(1, "accepted", ada), "stopped_by": []},
        {"folder": folders[2], "rules": [ground], "row": row(2, "rejected", ada), "stopped_by": [],
         "correction": correction},
        {"folder": folders[3], "rules": [ground], "row": None, "stopped_by": [], "correction": unknown},
        {"folder": folders[4], "rules": [], "row": row(4, "accepted", ada), "stopped_by": [ground, stop]},
        {"folder": folders[5], "rules": [], "row": row(5, "rejected"), "stopped_by": []},
    ]  # fmt: skip
    request = RequestFactory().get("/articles/5/", {"view": 'state=any&q=<"x">'})
    context = {
        "article": Article(pk=5),
        "suggestions": suggestions,
        "request": request,
        "csrf_token": 'tok<"en>',
        "return_query": "view=state%3Dany&x=<y>",
    }
    variants = [
        {"view": 'state=any&site=<1>"'},
        {"view": "", "origin": 'corrections&"<x>'},
        {"view": "", "from_search": {"search": 'q=<b>&"a"', "rank": 3}, "return_query": ""},
    ]
    for extra in variants:
        old, new, html = both({**context, **extra})
        assert old == new, extra
        assert "<script>" not in html and "<b>" not in html and "&lt;script&gt;" in html
    assert html.count('class="suggestion"') == 6 and "(unknown)" in html and "Set by hand" in html


@pytest.mark.django_db
def test_the_folder_blocks_of_a_real_page_are_the_template_s(ec, sport_kb, expert_user):
    """On an article page's own data (selectors.article_page): suggested, accepted and rejected folders with a
    pending correction, opened in a view."""
    new = sport_kb["new"]
    services.commit_rule(new, "new", expert_user, folder=sport_kb["politics"], conditions=["election"])
    services.commit_rule(sport_kb["stone"], "new", expert_user, folder=sport_kb["economy"], conditions=["match"])
    services.accept(new, expert_user, [sport_kb["football"].pk])
    services.reject(new, sport_kb["politics"], expert_user)
    article = article_of(new)
    page = selectors.article_page(article, new, selectors.inbox_queryset(), user=expert_user)
    assert {s["row"].state for s in page["suggestions"]} == {"accepted", "rejected", "suggested"}
    assert any(s["correction"] for s in page["suggestions"])
    request = RequestFactory().get(f"/articles/{article.pk}/", {"view": "state=any"})
    old, new_html, _ = both(
        {**page, "article": article, "request": request, "csrf_token": "tok", "view": "state=any",
         "return_query": "view=state%3Dany"}
    )  # fmt: skip
    assert old == new_html
    assert Correction.objects.filter(case=new).exists()
