"""Articles as the pipeline leaves them, for tests that need one without fetching and processing it: the
article row (monitor) and, when any of processing's output is given, its content row (processing)."""

from monitor.models import Article
from processing.extraction import CONTENT_FIELDS
from processing.models import ArticleContent


def create_article(**fields) -> Article:
    """``Article.objects.create`` that also takes processing's output (core_text, tokens, extraction, keywords,
    abstract, relevant_links, fingerprint) and stores it in the article's content row."""
    content = {name: fields.pop(name) for name in CONTENT_FIELDS if name in fields}
    article = Article.objects.create(**fields)
    if content:
        article.content = ArticleContent.objects.create(article=article, **content)
    return article
