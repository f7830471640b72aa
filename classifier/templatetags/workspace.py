"""Small display helpers for the workspace templates (plain text out: templates escape it)."""

import json
from datetime import UTC
from functools import lru_cache

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.dates import MONTHS_3
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import capfirst

from classifier.features import describe
from classifier.keys import KEYS, page_keys, script_keys
from classifier.permissions import may_open as user_may_open
from classifier.services.corrections import pending_count
from classifier.vocabulary import NO_FOLDER
from classifier.vocabulary import article_state as article_word
from classifier.vocabulary import folder_state as folder_word
from foundation.roles import request_user_is_expert

register = template.Library()


@register.filter
def condition(feature: str) -> str:
    """A condition as an expert reads it: ``title:measles`` -> ``title has "measles"`` (classifier.features)."""
    return describe(feature)


@register.filter
def paragraphs(text: str) -> str:
    """Core text as paragraphs, escaped: it keeps one block (a paragraph, a subhead, a list item) per line, which
    ``linebreaks`` joined into one paragraph of plain lines with no space between them (a live trial)."""
    return format_html_join("\n", "<p>{}</p>", ((line,) for line in (text or "").splitlines() if line.strip()))


@register.filter
def rule_text(rule) -> str:
    """A rule as an expert reads it: "goal & "prime minister" & not site is bbc.co.uk → Politics"."""
    words = [describe(w) for w in rule.conditions] + [f"not {describe(w)}" for w in rule.absent]
    target = rule.folder.path if rule.folder_id else "STOP (withhold the folder)"
    return f"{' & '.join(words)} → {target}"


@register.simple_tag
def pending_corrections_count(user) -> int | None:
    """How many rejections wait for their rule (everyone's), for the header's link; None for a non-expert."""
    if not user.is_authenticated or not request_user_is_expert(user):
        return None
    return pending_count()  # cached until a correction changes


#: stands for the id in a URL reversed once (id_url): no row has it
_SOME_ID = 987654321


@register.simple_tag(takes_context=True)
def id_url(context, url_name: str, pk) -> str:
    """``{% url url_name pk %}`` for a URL whose one argument is an id, reversed once per page and URL name: the
    article page links each of its twenty folders and their rules, and every reverse() walks the URL patterns."""
    made = context.render_context.setdefault("id_urls", {})
    if url_name not in made:
        made[url_name] = reverse(url_name, args=[_SOME_ID])
    return made[url_name].replace(str(_SOME_ID), str(int(pk)))


@register.filter
def may_open(user, url_name: str) -> bool:
    """Whether the header shows the link to ``url_name``: only if its view would admit this user (a site
    administrator or a subscriber was offered the workspace's links, each a 403)."""
    return user_may_open(user, url_name)


@register.filter
def rule_kind(rule) -> str:
    return rule.kind.label


@register.filter
def ratio(value) -> str:
    """A 0..1 measure as a percentage; undefined measures (no cases) show as an en dash."""
    return "–" if value is None else f"{value * 100:.1f} %"


@register.filter
def paths(folders) -> str:
    return ", ".join(f.path for f in folders) or "(none)"


@register.filter
def word_score(item) -> str:
    """Why a difference-list word ranks where it does (acquisition.RankedWord), for its tooltip."""
    parts = [f"leaves {item.excludes} changing cornerstone case{'s' if item.excludes != 1 else ''} unchanged"]
    if item.precision is not None:
        parts.append(f"precision {item.precision * 100:.0f} % among accepted articles")
    if item.prior:
        parts.append("used by an earlier rule for this folder")
    if item.named:
        parts.append("the folder's name holds it")
    if item.weight:
        parts.append(f"keyword of this article (weight {item.weight:.2f})")
    if item.cases is not None:
        parts.append(f"in {item.cases} stored article{'s' if item.cases != 1 else ''}")
    return "; ".join(parts)


# --------------------------------------------------------------------------- the key map (classifier/keys.py)
@register.simple_tag
def key(action: str) -> str:
    """``data-key="s"`` for the element a shortcut activates (static/js/workspace.js clicks or focuses it)."""
    return format_html('data-key="{}" aria-keyshortcuts="{}"', KEYS[action].key, KEYS[action].key)


@register.simple_tag
def kbd(action: str) -> str:
    """A shortcut as the page shows it: ``<kbd>s</kbd>``, ``<kbd>Ctrl</kbd>+<kbd>Enter</kbd>``."""
    return format_html_join("+", "<kbd>{}</kbd>", ((part,) for part in KEYS[action].label_parts))


@register.inclusion_tag("classifier/_shortcuts.html")
def shortcuts(page: str, may_search: bool) -> dict:
    """The ? dialog's list: exactly the keys this page offers (the search key only to those who may search)."""
    return {"keys": page_keys(page, may_search=may_search)}


@register.simple_tag
def keymap() -> str:
    """The keys the script handles itself, for the body's ``data-keymap`` (escaped by the template)."""
    return json.dumps(script_keys())


# --------------------------------------------------------------------------- status words (classifier/vocabulary.py)
def _part(word, part: str) -> str:
    if part not in ("word", "meaning"):
        raise ValueError(f"a status has a word and a meaning, not {part!r}")
    return getattr(word, part)


@register.filter
def article_state(state, part: str = "word") -> str:
    """An article's review state as every page says it ("suggested" for pending); ``:"meaning"`` for a tooltip."""
    return _part(article_word(state), part)


@lru_cache(maxsize=4096)
def _chip(path: str, state: str) -> str:
    """One chip's HTML, made once per folder path and state in a process (every row of a list repeats them)."""
    word = folder_word(state)
    if state == "accepted":
        return format_html(
            '<span class="folder-chip {}" title="{}: {}">{}</span>', state, word.word, word.meaning, path
        )
    return format_html(
        '<span class="folder-chip {}" title="{}: {}">{} <span class="chip-state">{}</span></span>',
        state,
        word.word,
        word.meaning,
        path,
        word.word,
    )


@register.simple_tag
def folder_chip(chip) -> str:
    """A folder on an article, with its state unless accepted (a tag, not an include: lists show 300 of them)."""
    return _chip(chip.path, chip.state)


@register.filter
def folder_chips(chips, shown: int = 6) -> str:
    """An article's folders as the inbox's row shows them: the first ``shown`` chips and how many more there are.
    One filter a row (it was a loop of tags, a slice and two length filters: a page of 50 rows spent longer on
    them than on its queries)."""
    html = mark_safe("".join(_chip(c.path, c.state) for c in chips[:shown]))  # noqa: S308 - format_html's pieces
    more = len(chips) - shown
    return html + format_html('<span class="muted">+{} more</span>', more) if more > 0 else html


@register.simple_tag
def inbox_row(row) -> str:
    """One row of the inbox's table (selectors.InboxRow), written in one call: a page of 50 rows spent more time
    in the template's lookups and filters for them than in its queries."""
    article, state = row.article, row.state
    title = article.title or article.url
    word = article_word(state)
    return format_html(
        '<tr data-row data-href="{}"{}>\n'
        '<td class="pick"><input type="checkbox" name="article" value="{}" form="bulk" aria-label="select {}"{}></td>\n'
        '<td><span class="badge {}" title="{}">{}</span></td>\n'
        '<td class="title">{}<a href="{}">{}</a>{}</td>\n'
        '<td>{}</td>\n<td class="muted">{}</td>\n<td>{}</td>\n</tr>',
        row.href,
        mark_safe(' class="unread"') if row.unread else "",  # noqa: S308 - a constant
        article.pk,
        title,
        mark_safe(" checked") if row.checked else "",  # noqa: S308 - a constant
        state,
        article.last_error if state == "failed" else word.meaning,
        word.word,
        _UNREAD_DOT if row.unread else "",
        row.href,
        title,
        format_html(' <span class="assignee" title="assigned to {}">→ {}</span>', row.assignee, row.assignee)
        if row.assignee
        else "",
        article.site.name,
        day_and_time(article.collected_at),
        folder_chips(row.classifications),
    )


def day_and_time(when) -> str:
    """``when`` as the date filter's "j M Y H:i" writes it in the server's time zone ("5 Mar 2026 09:07"), in less
    than half its time (the inbox writes 50 a page)."""
    local = timezone.localtime(when)
    return f"{local.day} {MONTHS_3[local.month].title()} {local.year:04d} {local.hour:02d}:{local.minute:02d}"


_UNREAD_DOT = mark_safe('<span class="unread-dot" title="unread">●<span class="visually-hidden"> unread</span></span> ')  # noqa: S308


@register.filter
def folder_state(state, part: str = "word") -> str:
    """A folder's state on an article (suggested, accepted, rejected); ``:"meaning"`` for a tooltip."""
    return _part(folder_word(state), part)


@register.simple_tag
def no_folder(part: str = "word") -> str:
    """The words for an expert's decision that an article belongs in no folder ("reviewed, no folder")."""
    return _part(NO_FOLDER, part)


@register.filter
def published_on(article) -> str:
    """When the article was published, as precisely as its source said: with the time of day in the server's
    time zone (like every date shown), or the day alone when the source gave a date only, read in UTC where
    monitor.discovery.parse_date put its midnight (a zone west of UTC would show the day before). Articles
    stored before the precision was kept show the day, as they always did. "" without a date."""
    when = article.published_at
    if when is None:
        return ""
    if article.published_time_given:
        return format_date(timezone.localtime(when), "j M Y H:i")
    if article.published_time_given is False:
        return format_date(when.astimezone(UTC), "j M Y")
    return format_date(timezone.localtime(when), "j M Y")


# --------------------------------------------------------------------------- the article page's folders
@register.simple_tag(takes_context=True)
def suggestion_blocks(context) -> str:
    """The article page's folder blocks (selectors.article_page's ``suggestions``), written in Python: some 20
    blocks of a dozen template lookups, filters and tags each cost the page more than all its queries. The markup
    is the template's (tests/classifier/test_suggestion_blocks.py keeps the two alike, escaping included)."""
    article = context["article"]
    page = {
        "reject_url": reverse("classifier:reject", args=[article.pk]),
        "folder_url": id_url(context, "classifier:folder", _SOME_ID),
        "rule_url": id_url(context, "classifier:rule_detail", _SOME_ID),
        "csrf": CsrfTokenNode().render(context),
        "view_fields": view_fields(context),
        "article": article,
        "return_query": context.get("return_query"),
        "full_path": context["request"].get_full_path(),
    }
    return mark_safe("\n".join(_suggestion(s, i, page) for i, s in enumerate(context["suggestions"], 1)))  # noqa: S308


@register.simple_tag(takes_context=True)
def view_fields(context) -> str:
    """The hidden fields that carry the view (or the search) a page was opened in (classifier/_view_field.html
    includes this tag; the folder blocks write it once a page)."""
    view, origin = context.get("view"), context.get("origin")
    return format_html(
        "{}{}{}",
        format_html('<input type="hidden" name="view" value="{}">', view) if view else "",
        format_html('<input type="hidden" name="origin" value="{}">', origin) if origin else "",
        format_html_join("", '<input type="hidden" name="{}" value="{}">', (context.get("from_search") or {}).items()),
    )


def _url(made: str, pk) -> str:
    return made.replace(str(_SOME_ID), str(int(pk)))


def _suggestion(s: dict, counter: int, page: dict) -> str:
    folder, row, rules, correction = s["folder"], s["row"], s["rules"], s.get("correction")
    state = row.state if row is not None else ""
    pick = (
        format_html(
            '<input type="checkbox" name="folder" value="{}" form="accept-selected" data-index="{}" id="pick-{}" '
            'aria-label="select {}">\n<label for="pick-{}"><kbd>{}</kbd></label>',
            folder.pk,
            counter,
            folder.pk,
            folder.path,
            folder.pk,
            counter,
        )
        if row is not None and state != "accepted"
        else ""
    )
    badge = _badge("correction") if correction is not None else _badge(state) if row is not None else ""
    tools = ""
    if rules and state != "rejected":
        tools = format_html(
            '<span class="tools">\n<form method="post" action="{}" id="reject-{}">{}{}\n'
            '<input type="hidden" name="folder" value="{}">\n'
            '<button type="submit" name="kind" value="stop" class="danger" title="Reject and make a stopping rule">'
            "Reject</button>\n"
            '<button type="submit" name="kind" value="refine" title="Reject and make a refining rule to the right '
            'folder">Wrong → …</button>\n</form>\n</span>',
            page["reject_url"],
            counter,
            page["csrf"],
            page["view_fields"],
            folder.pk,
        )
    return format_html(
        '<div class="suggestion" data-folder="{}">\n<header>\n{}\n<a class="folder" href="{}">{}</a>\n{}\n{}\n'
        "</header>\n{}\n{}\n</div>",
        folder.pk,
        pick,
        _url(page["folder_url"], folder.pk),
        folder.path,
        badge,
        tools,
        _correction(correction, page) if correction is not None else "",
        _why(s, row, rules, page),
    )


@lru_cache(maxsize=16)
def _badge(state: str) -> str:
    word = folder_word(state)
    return format_html('<span class="badge {}" title="{}">{}</span>', state, word.meaning, word.word)


def _rule_item(rule, page: dict) -> str:
    return format_html(
        '<li><a href="{}">rule {}</a> <span class="muted">({})</span> <code>{}</code></li>',
        _url(page["rule_url"], rule.pk),
        rule.pk,
        rule.kind.label,
        rule_text(rule),
    )


def _why(s: dict, row, rules: list, page: dict) -> str:
    """Why the folder is there: its rules, or the expert's decision (and the stopping rule that withholds it)."""
    if rules:
        return format_html(
            '<ul class="why" aria-label="why">\n{}\n</ul>',
            mark_safe("".join(_rule_item(r, page) for r in rules)),  # noqa: S308
        )
    if row is None:
        return ""
    who: str  # a constant, or SafeString (format_html leaves it as it is)
    withheld: str
    if row.decided_by is not None:
        who = format_html("{} by {}", capfirst(folder_word(row.state).word), row.decided_by.get_username())
    else:
        who = "Set by hand"
    if s["stopped_by"]:
        stop = s["stopped_by"][-1]
        withheld = format_html(
            'withheld by the stopping <a href="{}">rule {}</a> <code>{}</code>',
            _url(page["rule_url"], stop.pk),
            stop.pk,
            rule_text(stop),
        )
    else:
        withheld = "no rule gives this folder now"
    return format_html('<p class="why">{};\n{}.</p>', who, withheld)


def _correction(c, page: dict) -> str:
    """A rejection waiting for its rule: who rejected the folder, the link to make the rule, the withdrawal."""
    query = f"&{page['return_query']}" if page["return_query"] else ""
    return format_html(
        '<div class="correction" id="correction-{}">\n'
        '<p class="why">Rejected by {} on {}; the knowledge base still gives this folder until a rule corrects '
        "it.</p>\n"
        '<a class="button" href="{}?kind={}&amp;wrong={}{}">Make the {} rule</a>\n'
        '<form method="post" action="{}" class="inline-form">{}\n'
        '<input type="hidden" name="next" value="{}">\n'
        '<button type="submit">Withdraw the rejection</button>\n</form>\n</div>',
        c.pk,
        (c.rejected_by.get_username() if c.rejected_by is not None else "") or "(unknown)",
        day_and_time(c.rejected_at) if c.rejected_at else "",
        reverse("classifier:rule", args=[page["article"].pk]),
        c.kind,
        c.folder_id,
        query,
        c.get_kind_display(),
        reverse("classifier:correction_withdraw", args=[c.pk]),
        page["csrf"],
        page["full_path"],
    )
