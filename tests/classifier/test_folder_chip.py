"""The folder chip that lists show (classifier/templatetags/workspace.py folder_chip)."""


def test_a_folder_chip_escapes_the_folders_path():
    """The chip is a tag that writes its HTML (format_html), no longer an autoescaped include: a folder's name
    is an expert's text."""
    from classifier.filtering import FolderChip
    from classifier.templatetags.workspace import folder_chip

    for state in ("accepted", "suggested"):
        html = folder_chip(FolderChip(1, '<b onclick="x">News</b>', state))
        assert "&lt;b onclick=&quot;x&quot;&gt;News&lt;/b&gt;" in html and "<b" not in html


#: the inbox's row as its template wrote it before classifier/templatetags/workspace.py inbox_row did
ROW_TEMPLATE = """{% load workspace %}
    <tr data-row data-href="{{ row.href }}"{% if row.unread %} class="unread"{% endif %}>
      <td class="pick"><input type="checkbox" name="article" value="{{ row.article.pk }}" form="bulk" aria-label="select {{ row.article.title|default:row.article.url }}"{% if row.checked %} checked{% endif %}></td>
      <td><span class="badge {{ row.state }}" title="{% if row.state == "failed" %}{{ row.article.last_error }}{% else %}{{ row.state|article_state:"meaning" }}{% endif %}">{{ row.state|article_state }}</span></td>
      <td class="title">{% if row.unread %}<span class="unread-dot" title="unread">●<span class="visually-hidden"> unread</span></span> {% endif %}<a href="{{ row.href }}">{{ row.article.title|default:row.article.url }}</a>{% if row.assignee %} <span class="assignee" title="assigned to {{ row.assignee }}">→ {{ row.assignee }}</span>{% endif %}</td>
      <td>{{ row.article.site.name }}</td>
      <td class="muted">{{ row.article.collected_at|date:"j M Y H:i" }}</td>
      <td>{% for c in row.classifications|slice:":6" %}{% folder_chip c %}{% endfor %}{% if row.classifications|length > 6 %}<span class="muted">+{{ row.classifications|length|add:"-6" }} more</span>{% endif %}</td>
    </tr>"""  # noqa: E501


def test_an_inbox_row_is_the_markup_its_template_wrote():
    """The inbox's row is one tag (a page of 50 rows spent longer in the template than in its queries): the same
    HTML as the template wrote, escaped alike, for unread, assigned, ticked, failed and many-folder rows."""
    from datetime import UTC, datetime

    from django.template import Context, Template
    from django.test.html import parse_html

    from classifier.filtering import FolderChip
    from classifier.selectors import InboxRow
    from classifier.templatetags.workspace import inbox_row
    from monitor.models import Article, Site

    site = Site(pk=3, name='Daily <"News">')
    chips = [FolderChip(i, f"Topic {i}/<Sub & {i}>", ("accepted", "suggested", "rejected")[i % 3]) for i in range(9)]
    when = datetime(2026, 3, 5, 9, 7, tzinfo=UTC)
    rows = [
        InboxRow(
            Article(pk=7, site=site, title='A <b>"title"</b>', url="https://x.example/", collected_at=when), "suggested"
        ),
        InboxRow(
            Article(
                pk=8,
                site=site,
                title="",
                url="https://x.example/?a=1&b=<2>",
                collected_at=when,
                last_error="HTTP 500 <x>",
            ),
            "failed",
            chips,
            href="/articles/8/?view=state%3Dany",
            unread=True,
            assignee="ada<",
            checked=True,
        ),
        InboxRow(
            Article(pk=9, site=site, title="Six", url="u", collected_at=when), "reviewed", chips[:6], assignee="bob"
        ),
    ]
    for row in rows:
        expected = Template(ROW_TEMPLATE).render(Context({"row": row}))
        assert parse_html(inbox_row(row)) == parse_html(expected), row.article.pk
    assert "+3 more" in inbox_row(rows[1]) and "more" not in inbox_row(rows[2])
