"""A fetched article's extraction: the noise filters on its stored page, and its core text's fingerprint.

Shared by processing (processing/services.py) and re-filtering after site learning (processing/learning.py).
"""

from __future__ import annotations

import hashlib

import filters
from monitor.models import Article


def content_hash(core_text: str) -> str:
    """Fingerprint of the core text, blind to whitespace and case; '' for an empty text."""
    normal = " ".join(core_text.split()).casefold()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest() if normal else ""


def extract_article(article: Article, profile) -> filters.Extraction:
    """filters.extract on the article's stored page; sets title, core text, tokens, extraction (no save)."""
    extraction = filters.extract(
        article.get_raw_html(),
        url=article.url,
        profile=profile,
        content_type=article.headers.get("content-type"),
        charset=article.charset or None,
    )
    article.title = extraction.title[:500]
    article.core_text = extraction.text
    article.tokens = extraction.tokens
    article.charset = (extraction.encoding or article.charset or "")[:40]
    article.extraction = {
        "profile": extraction.profile,
        "counts": extraction.counts,
        "phrases": [[p.text, p.removed_by, p.rescued_by] for p in extraction.phrases],
    }
    return extraction
