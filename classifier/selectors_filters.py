"""Read-side queries of the filter view (classifier/views/articles.py: article_filters): an article's phrases
with the filters' decisions, its phrase labels and the filters' metrics per site. Apart from
classifier/selectors.py, which composes the workspace's other pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from classifier.models_labels import PhraseLabel, contingency_cells, contingency_counts
from filters.metrics import Contingency
from filters.services import profile_for_site
from monitor.models import Article, Site


@dataclass(frozen=True)
class ShownPhrase:
    """A phrase of the page as the filter view shows it (stored decision or a fresh extraction)."""

    text: str
    path: str
    removed_by: str | None
    rescued_by: str | None
    #: why the main-content stage decided as it did ("comment section", "outside the main content"...)
    note: str | None = None

    @property
    def is_core(self) -> bool:
        return self.removed_by is None


def stored_html(article: Article) -> bytes | None:
    """The article page's raw HTML as WebMon stored it (decompressed), or None when it kept none."""
    getter = getattr(article, "get_raw_html", None)
    if callable(getter):
        return getter() or None
    return None


def article_phrases(article: Article) -> tuple[list[ShownPhrase], str]:
    """The article's phrases with the filters' decisions, and where they came from.

    Prefers the decisions WebMon stored with the article (what the classifier was really given);
    otherwise re-runs the filters on the stored HTML with the site's profile.
    """
    stored = (article.extracted.extraction or {}).get("phrases")
    if stored:
        # processing stores each phrase as [text, removed_by, rescued_by, note] (processing/extraction.py);
        # articles processed before the main-content stage have no note
        return [ShownPhrase(row[0], "", row[1], row[2], row[3] if len(row) > 3 else None) for row in stored], "stored"
    if article.state not in Article.READ_STATES:
        # a page that processing refused, or never read yet, is not read here (in a web request) either
        return [], "refused" if article.raw_size else "none"
    html = stored_html(article)
    if not html:
        return [], "none"
    import filters  # local: only the filter view needs the extraction pipeline

    extraction = filters.extract(
        html, url=article.url, profile=profile_for_site(article.site), charset=getattr(article, "charset", None) or None
    )
    return [ShownPhrase(p.text, p.path, p.removed_by, p.rescued_by, p.note) for p in extraction.phrases], "re-extracted"


def _metrics(counts: dict) -> dict:
    return Contingency(counts["a"] or 0, counts["b"] or 0, counts["c"] or 0, counts["d"] or 0).as_dict()


def filter_page(article: Article, phrases: list[ShownPhrase]) -> dict:
    """The filter view's labels and metrics: the article's phrase labels still matching its phrases, its
    own metrics, and recall, precision, fallout, accuracy and error per site (one grouped query)."""
    labels = {
        label.position: label
        for label in PhraseLabel.objects.filter(article=article)
        if label.position < len(phrases) and phrases[label.position].text == label.text
    }
    site_rows = list(
        PhraseLabel.objects.values("article__site_id")
        .annotate(articles=Count("article_id", distinct=True), **contingency_cells())
        .order_by()
    )
    sites = Site.objects.in_bulk([r["article__site_id"] for r in site_rows])
    per_site = [
        {"site": sites[r["article__site_id"]], "articles": r["articles"], "m": _metrics(r)}
        for r in site_rows
        if r["article__site_id"] in sites
    ]
    per_site.sort(key=lambda r: (r["site"].pk != article.site_id, r["site"].name))
    removed: dict[str, int] = {}
    for p in phrases:
        removed[p.removed_by or "core"] = removed.get(p.removed_by or "core", 0) + 1
    return {
        "labels": labels,
        "this_article": _metrics(contingency_counts(PhraseLabel.objects.filter(article=article))) if labels else None,
        "per_site": per_site,
        "removed_counts": removed,
    }
