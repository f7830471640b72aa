"""Demo-like workspace data made through the real pipeline: demo pages -> filters -> services."""

import filters
from classifier import kb, services
from demo.articles import ARTICLES, TOPICS
from demo.sites import DEMO_SITES, article_url, render_article_page
from foundation.roles import EXPERTS, SITE_ADMINISTRATORS, ensure_groups
from monitor.models import Article, Site
from processing.extraction import set_docview
from processing.models import ArticleContent

PASSWORD = "correct horse battery"  # noqa: S105 - test login


def folder_path(topic: str) -> str:
    return f"Health/{topic.replace('-', ' ').capitalize()}"


def load(django_user_model, rule_on=("courier", "diabetes-foot-clinic-opens"), slugs=None):
    """Users, the three demo sites, their articles ingested as cases, a folder per topic, one rule.

    The rule ("diabetes" -> Health/Diabetes) is made for ``rule_on``, which becomes its cornerstone case (no
    rule with ``rule_on=None``: a new knowledge base). Each article has its DocView keywords, as processing stores them.
    Returns a dict: users, sites, folders (by topic), articles (by slug), rule.
    """
    kb.clear_cache()
    groups = ensure_groups()
    expert = django_user_model.objects.create_user("ada", password=PASSWORD)
    expert.groups.add(groups[EXPERTS])
    admin = django_user_model.objects.create_user("sam", password=PASSWORD)
    admin.groups.add(groups[SITE_ADMINISTRATORS])
    sites = {}
    for spec in DEMO_SITES:
        base = f"http://{spec.hostname}"
        sites[spec.key] = (Site.objects.create(name=spec.name, home_url=base + "/"), spec, base)
    folders = {topic: services.create_folder(folder_path(topic), expert) for topic in TOPICS}
    # a filter profile per site, learned from its pages as WebMon does, so the core text is clean
    profiles = {
        key: filters.learn_profile([render_article_page(key, a.slug, base_url=base) for a in spec.articles])
        for key, (_site, spec, base) in sites.items()
    }
    # the registered sites' stories (the site left to register has none here), the cornerstone first
    ordered = sorted((a for a in ARTICLES if a.site in sites), key=lambda a: (a.site, a.slug) != rule_on)
    articles = {}
    rule = None
    for pool in ordered:
        if slugs is not None and pool.slug not in slugs and (pool.site, pool.slug) != rule_on:
            continue
        site, spec, base = sites[pool.site]
        html = render_article_page(pool.site, pool.slug, base_url=base)
        extraction = filters.extract(html, profile=profiles[pool.site])
        article = Article(
            site=site,
            url=article_url(spec, pool, base),
            title=extraction.title or pool.title,
            state=Article.State.PROCESSED,  # its case is ingested below, as processing would have done
        )
        if hasattr(article, "set_raw_html"):
            article.set_raw_html(html.encode())
        article.save()
        content = ArticleContent.objects.create(article=article, core_text=extraction.text, tokens=extraction.tokens)
        set_docview(article, extraction)  # its keywords, weighted as processing weighs them
        content.save()
        case = services.ingest_case(article, extraction.tokens)
        articles[pool.slug] = article
        if (pool.site, pool.slug) == rule_on:
            rule = services.commit_rule(case, "new", expert, folder=folders["diabetes"], conditions=["diabetes"])[0]
    return {"expert": expert, "admin": admin, "sites": sites, "folders": folders, "articles": articles, "rule": rule}
