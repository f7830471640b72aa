"""What a subscriber receives: the e-mail (HTML and plain text, from templates/alerts/) and the short Markdown
text for notification URLs. Titles and abstracts are untrusted text: escaped in HTML, Markdown-escaped for
Apprise, and plain in the text part."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import Truncator

from alerts.channels import Message
from alerts.models import Subscription
from classifier.models import Classification
from monitor.models import Article

ABSTRACT_CHARS = 400
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def absolute(path: str) -> str:
    return settings.WIMS_PUBLIC_URL.rstrip("/") + path


def md(text: str) -> str:
    """Markdown-escape untrusted text, on one line."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def md_url(url: str) -> str:
    """A URL that cannot end a Markdown link early."""
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def _accepted_folders(articles: Sequence[Article]) -> dict[int, list[str]]:
    paths: dict[int, list[str]] = defaultdict(list)
    rows = Classification.objects.filter(
        case__article__in=[a.pk for a in articles], state=Classification.State.ACCEPTED
    ).values_list("case__article_id", "folder__path")
    for article_id, path in rows.order_by("folder__path"):
        paths[article_id].append(path)
    return paths


def items(articles: Sequence[Article]) -> list[dict]:
    folders = _accepted_folders(articles)
    return [
        {
            "title": a.title or a.url,
            "url": a.url,
            "wims_url": absolute(reverse("classifier:article", args=[a.pk])),
            "site": a.site.name,
            "abstract": Truncator(" ".join(a.summary.split())).chars(ABSTRACT_CHARS),
            "folders": folders.get(a.pk, []),
        }
        for a in articles
    ]


def subject(subscription: Subscription, count: int, first_title: str) -> str:
    if subscription.frequency == Subscription.Frequency.IMMEDIATE and count == 1:
        return f"[WIMS] {subscription.target_name}: {' '.join(first_title.split())}"[:200]
    kind = {"daily": "Daily digest", "weekly": "Weekly digest"}.get(subscription.frequency, "Alert")
    noun = "article" if count == 1 else "articles"
    return f"[WIMS] {kind}: {count} new {noun} in {subscription.target_name}"[:200]


def message(subscription: Subscription, articles: Sequence[Article], unsubscribe_url: str) -> Message:
    entries = items(articles)
    title = subject(subscription, len(entries), entries[0]["title"] if entries else "")
    context = {
        "subscription": subscription,
        "items": entries,
        "unsubscribe_url": unsubscribe_url,
        "manage_url": absolute(reverse("alerts:list")),
        "subject": title,
    }
    lines = [f"{len(entries)} new in **{md(subscription.target_name)}**", ""]
    for item in entries:
        where = f" · {md(', '.join(item['folders']))}" if item["folders"] else ""
        link, wims = md_url(item["url"]), md_url(item["wims_url"])
        lines.append(f"- [{md(item['title'])}]({link}) ({md(item['site'])}{where}) · [WIMS]({wims})")
    lines += ["", f"[Unsubscribe]({md_url(unsubscribe_url)})"]
    return Message(
        subject=title,
        text=render_to_string("alerts/email.txt", context),
        html=render_to_string("alerts/email.html", context),
        markdown="\n".join(lines),
        unsubscribe_url=unsubscribe_url,
    )
