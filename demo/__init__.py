"""Demo news sites for WIMS: four health news sites served locally, with ground truth and fault switches
(``make run`` registers three of them and leaves the fourth for the newcomer to register).

Pure Python (no Django). Typical use::

    from demo import DemoServer
    with DemoServer(port=0, interval=None) as server:
        home = server.home_url("healthwatch")

``python -m demo --port 8001`` serves the four sites for ``make run``; see ``server.py`` for the
control endpoints (``/_control/...``) and fault URLs (``/fault/...``), ``sites.py`` for the templates and
``articles.py`` for the article pool with its topic labels and core text.
"""

from .articles import ARTICLES, SECTIONS, TOPICS, Article, articles_for_site, get_article
from .server import FAULT_MODES, DemoApp, DemoServer, Response
from .sites import (
    DEFAULT_PORT,
    DEMO_SITES,
    DEMO_SITES_BY_KEY,
    LEFT_TO_REGISTER,
    SERVED_SITES,
    PageContext,
    SiteSpec,
    fixed_context,
    get_site,
    render_article_page,
    render_home_page,
    render_section_page,
    synthetic_sites,
)

__all__ = [
    "ARTICLES",
    "DEFAULT_PORT",
    "DEMO_SITES",
    "DEMO_SITES_BY_KEY",
    "FAULT_MODES",
    "LEFT_TO_REGISTER",
    "SERVED_SITES",
    "SECTIONS",
    "TOPICS",
    "Article",
    "DemoApp",
    "DemoServer",
    "PageContext",
    "Response",
    "SiteSpec",
    "articles_for_site",
    "fixed_context",
    "get_article",
    "get_site",
    "render_article_page",
    "render_home_page",
    "render_section_page",
    "synthetic_sites",
]
