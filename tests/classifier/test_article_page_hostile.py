"""The article page's folder blocks (workspace.suggestion_blocks) on the real page, with markup in everything an
attacker can put there: a folder's name, a rule's condition (an article's word), an expert's username, the view
and the search the page was opened in, the raw query string. Read back by an HTML parser: each value comes back
as the text or the attribute value it was, and no element or attribute of its own comes out of it; every posting
form carries its CSRF token and the page's view or search."""

from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from django.template import Context, Template
from django.test.html import parse_html
from django.urls import reverse

from classifier import services
from classifier.models import Correction
from tests.classifier.conftest import article_of
from tests.classifier.test_suggestion_blocks import BLOCKS_TEMPLATE

#: closes a double- or single-quoted attribute and the tag, then opens an element with a handler
HOSTILE = "\"'><img src=x onerror=alert(1)>&amp;"


class Page(HTMLParser):
    """Every element's (tag, attrs, text inside it), and the posting forms' fields."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict, list[str]]] = []
        self.open: list[list[str]] = []
        self.forms: list[dict] = []
        self.form: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        text: list[str] = []
        self.elements.append((tag, attrs, text))
        if tag == "form":
            self.form = {"attrs": attrs, "fields": []}
            self.forms.append(self.form)
        elif tag == "input" and self.form is not None:
            self.form["fields"].append((attrs.get("name"), attrs.get("value")))
        if tag not in {"input", "br", "img", "meta", "link", "hr"}:
            self.open.append(text)

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        if tag not in {"input", "br", "img", "meta", "link", "hr"} and self.open:
            self.open.pop()

    def handle_data(self, data):
        for text in self.open:
            text.append(data)

    def text_of(self, tag: str, **attrs) -> list[str]:
        wanted = attrs.items()
        return ["".join(t) for name, a, t in self.elements if name == tag and all(a.get(k) == v for k, v in wanted)]


@pytest.fixture
def hostile_page(make_expert, make_case):
    """A case with a suggested folder (a rule on a hostile word) and a rejected one waiting for its rule, by an
    expert with a hostile username, both folders with hostile names."""
    evil = make_expert(f"ev{HOSTILE}")
    word = f"goal{HOSTILE}"
    picked = services.create_folder(f"Sport {HOSTILE}", evil)
    rejected = services.create_folder(f"Politics {HOSTILE}2", evil)
    stone = make_case([word, "match"])
    services.commit_rule(stone, "new", evil, folder=picked, conditions=[word])
    services.commit_rule(stone, "new", evil, folder=rejected, conditions=["match"])
    case = make_case([word, "match", "vote"])
    services.reject(case, rejected, evil)
    assert Correction.objects.filter(case=case, state=Correction.State.PENDING).exists()
    return {"article": article_of(case), "evil": evil, "word": word, "picked": picked, "rejected": rejected}


def _check(page: Page, hostile_page: dict, carried: dict) -> None:
    picked, rejected, evil = hostile_page["picked"], hostile_page["rejected"], hostile_page["evil"]
    # nothing the values held became markup
    assert not [e for e in page.elements if e[0] in {"img", "svg", "script"} and "onerror" in str(e[1])]
    assert not [e for e in page.elements if any(k.startswith("on") for k in e[1])]
    # each value is the text or the attribute value it was
    assert page.text_of("a", **{"class": "folder"}) == [picked.path, rejected.path]
    assert [a["aria-label"] for t, a, _ in page.elements if a.get("form") == "accept-selected" and t == "input"] == [
        f"select {picked.path}",
        f"select {rejected.path}",
    ]
    codes = page.text_of("code")
    assert any(hostile_page["word"] in c and c.endswith(f" → {picked.path}") for c in codes)
    assert f"match → {rejected.path}" in codes
    assert any(f"Rejected by {evil.username} on" in t for t in page.text_of("p", **{"class": "why"}))
    # every posting form holds its token; the folder's own (reject, withdraw) carry the view or the search
    posting = [f for f in page.forms if f["attrs"].get("method") == "post"]
    assert posting and all(dict(f["fields"]).get("csrfmiddlewaretoken") for f in posting)
    rejects = [dict(f["fields"]) for f in posting if f["attrs"].get("id", "").startswith("reject-")]
    assert len(rejects) == 1 and rejects[0]["folder"] == str(picked.pk)
    assert {k: rejects[0].get(k) for k in carried} == carried
    make_rule = [a["href"] for t, a, _ in page.elements if t == "a" and "wrong=" in a.get("href", "")]
    assert make_rule and all(h.endswith("&" + urlencode(carried)) or not carried for h in make_rule)


@pytest.mark.django_db
def test_hostile_values_come_back_as_text_on_the_article_page_opened_in_a_view(ec, hostile_page):
    article = hostile_page["article"]
    view = urlencode({"state": "any", "date_from": HOSTILE})  # an unreadable filter still travels, encoded
    raw = f"&x={HOSTILE}".replace(" ", "%20")  # the raw query string: next= of the withdrawal carries it
    response = ec.get(f"{reverse('classifier:article', args=[article.pk])}?{urlencode({'view': view})}{raw}")
    assert response.status_code == 200
    page = Page(response.content.decode())
    _check(page, hostile_page, {"view": view})
    withdraw = [dict(f["fields"]) for f in page.forms if "withdraw" in f["attrs"].get("action", "")]
    assert [w["next"] for w in withdraw] == [response.wsgi_request.get_full_path()]


@pytest.mark.django_db
def test_hostile_values_come_back_as_text_on_the_article_page_opened_from_a_search(ec, hostile_page):
    article = hostile_page["article"]
    search = urlencode({"q": HOSTILE, "state": "any"})
    response = ec.get(reverse("classifier:article", args=[article.pk]), {"search": search, "rank": "2"})
    assert response.status_code == 200
    _check(Page(response.content.decode()), hostile_page, {"search": search, "rank": "2"})


@pytest.mark.django_db
def test_the_real_page_s_folder_blocks_are_the_old_template_s(ec, hostile_page):
    """The tag against the template it replaced, on the context the article view really gives (view, search,
    return query, request), hostile values included."""
    article = hostile_page["article"]
    url = reverse("classifier:article", args=[article.pk])
    for params in ({"view": "state=any"}, {"search": urlencode({"q": HOSTILE}), "rank": "3"}, {}):
        response = ec.get(url, params)
        context = next(c for c in response.context if "suggestions" in c).flatten() | {"csrf_token": "tok"}
        old = Template(BLOCKS_TEMPLATE).render(Context(context))
        new = Template("{% load workspace %}{% suggestion_blocks %}").render(Context(context))
        assert parse_html(old) == parse_html(new), params
