"""Site learning: a new site's filter profile, learned once from its first stored pages.

Until a site has a learned filter profile, its articles are filtered with the built-in default profile,
which cannot know the site's template text: the cookie banner, the slogan, the newsletter box and the
copyright lines stay in every article's core text and in the tokens its case is made of. So:

* after an article is processed, :func:`after_processing` asks for the ``learn`` task when the site has
  no learned profile yet and at least ``WIMS_AUTO_LEARN_PAGES`` pages stored (monitor/conf.py);
* :func:`learn_site` learns the profile from automatically chosen pages, the same choice as the admin
  action "Re-learn filter profile" (:func:`learning_pages`: its latest stored pages; filters.learning
  clusters them by template),
  then re-filters the site's processed articles with it: new core text, tokens and title, and the case
  ingested again (classifier.services.ingest_case is idempotent, keeps the experts' accepted and
  rejected classifications, and keeps the keywords of cornerstone cases, marking that their article's text
  has changed since). Re-learning by an administrator (:func:`relearn_site`) re-filters the same way.

Exactly once per site, with any number of workers: the profile is stored in one transaction that first
locks, or inserts, the site's SiteProfile row and checks that it is still unlearned; a second worker or a
redelivered message finds it learned and only re-filters what is still filtered with another profile.
Once a site has a learned profile it is never learned again automatically: re-learning is the
administrators' decision (admin action), because experts may have built rules on the current tokens.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.utils import timezone

import filters
from classifier.services import ingest_case
from filters import sst
from filters.models import SiteProfile
from filters.services import learn_site_profile, profile_for_site
from foundation.work import Outcome, unexpected_error
from monitor import conf
from monitor.canonical import canonicalise
from monitor.models import Article, Site

from .extraction import content_hash, extract_article, save_content, set_docview, store_bands
from .models import SiteLearning

log = logging.getLogger(__name__)

S = Article.State

#: articles re-filtered by one run of the task; the rest are left to the next run it enqueues
REFILTER_BATCH = 200
#: pages the automatic choice learns from (the site's latest stored ones)
LEARNING_PAGES = 20


def _learned(site_id: int) -> bool:
    return SiteProfile.objects.filter(site_id=site_id, learned_at__isnull=False).exists()


def _read_pages(site: Site):
    """The site's articles whose stored page processing read (Article.READ_STATES): a page refused at the
    filters' door (filters.limits), or not read yet, is never learned from."""
    # not the pages kept out as no articles (Article.READ_STATES has them): a listing or a service page would teach
    # the site's template wrongly
    articles = (S.PROCESSED, S.DUPLICATE)
    return Article.objects.filter(site=site, state__in=articles, raw_html__isnull=False).exclude(raw_size=0)


def stored_pages(site: Site) -> int:
    """Articles of the site whose raw page is stored and was read (what the admin action learns from)."""
    return _read_pages(site).count()


def after_processing(site: Site, used_profile: str) -> list[tuple[str, int, float]]:
    """What to enqueue after one of the site's articles was filtered with the profile ``used_profile``.

    The learn task when the site is ready to learn; also when the site already has a learned profile but
    this article was filtered without it (it was stored while the article was being processed).
    No query when the site's profile, read with the article, was learned already (the usual case); one
    otherwise, the count of stored pages, after the article's transaction (a count read with the article
    misses the pages that other workers commit meanwhile: the site's last pages of a burst never reached the
    threshold). A profile stored by another worker meanwhile needs no query of its own: the site had enough
    pages for it, so the learn task is asked for, finds the profile learned and re-filters this article with
    it.
    """
    needed = conf.auto_learn_pages()
    if not needed:
        return []
    profile = getattr(site, "filter_profile", None)
    if profile is None or profile.learned_at is None:
        if quarantined(site):  # it killed or timed out its worker: only an administrator asks again
            return []
        return [("learn", site.pk, 0)] if stored_pages(site) >= needed else []
    return [("learn", site.pk, 0)] if used_profile != f"site:{site.pk}" else []


def learn_site(site_id: int, batch: int = REFILTER_BATCH) -> Outcome:
    """Learn the site's filter profile if it has none yet, then re-filter its processed articles.

    Asks for another run when more than ``batch`` articles are left to re-filter.
    """
    site = Site.objects.filter(pk=site_id).first()
    if site is None:
        return Outcome("skipped", "site deleted")
    learned_here = False
    if not _learned(site.pk):
        pages = learning_pages(site)[0]
        needed = max(2, conf.auto_learn_pages())
        if len(pages) < needed:
            return Outcome("skipped", f"{len(pages)} stored pages, {needed} needed")
        refused = start_learning(site)
        if refused:
            return Outcome("failed", refused)
        try:
            learned_here = _store_once(site, pages)
        except ValueError as exc:  # fewer than two readable pages: try again after the next article
            log.warning("site %s (%s): automatic filter profile not learned: %s", site.pk, site, exc)
            end_learning(site, str(exc))
            return Outcome("failed", str(exc))
        except Exception as exc:  # a time or memory bound (SoftTimeLimitExceeded, MemoryError): counted
            end_learning(site, unexpected_error(exc), finished=False)
            raise
        end_learning(site, "")
    profile = SiteProfile.objects.get(site=site).to_profile()
    done, changed, left = refilter_site(site, profile, batch)
    if learned_here:
        log.info(
            "site %s (%s): filter profile learned automatically from %d of %d pages: %d filtering "
            "phrases, %d filtering words, %d noisy style-tree nodes, length threshold %d, title prefix %r, "
            "suffix %r",
            site.pk,
            site,
            len(profile.provenance.get("learned_from") or []),
            len(pages),
            len(profile.filtering_phrases),
            len(profile.filtering_words),
            sst.stats(profile.style_tree)["noisy"],
            profile.min_length,
            profile.title_prefix,
            profile.title_suffix,
        )
    if done:
        log.info(
            "site %s (%s): %d articles re-filtered with its learned profile, %d with a new core text; %s",
            site.pk,
            site,
            done,
            changed,
            f"{left} left for the next run" if left else "none left",
        )
    detail = f"{done} re-filtered ({changed} changed), {left} left"  # the result says whether it learned
    return Outcome("learned" if learned_here else "refiltered", detail, [("learn", site.pk, 0)] if left else [])


def quarantined(site: Site) -> bool:
    """Whether the site's automatic learning is stopped (no query when the site was loaded with
    ``select_related("learning")``)."""
    record = getattr(site, "learning", None)  # None: no record (RelatedObjectDoesNotExist is an AttributeError)
    return record is not None and record.quarantined_at is not None


def start_learning(site: Site) -> str:
    """Count a learning run before it starts, in its own transaction (a run that kills its worker never gets to
    say so); '' when it may run, else why not: the site's learning is quarantined, now or already."""
    limit = conf.max_process_attempts()
    with transaction.atomic():
        record, _ = SiteLearning.objects.select_for_update().get_or_create(site=site)
        if record.quarantined_at is None and record.unfinished >= limit:
            record.quarantined_at = timezone.now()
            record.last_error = (
                f"quarantined: learning the filter profile killed or timed out its worker {record.unfinished} "
                f"times ({record.last_error or 'no error recorded: the worker was lost'}); not tried again until "
                "an administrator retries it (site admin, action “Retry filter learning”)"
            )[:2000]
            record.save(update_fields=["quarantined_at", "last_error", "updated_at"])
            log.error("site %s (%s): %s", site.pk, site, record.last_error)
        if record.quarantined_at is not None:
            return record.last_error
        record.unfinished += 1
        record.save(update_fields=["unfinished", "updated_at"])
    return ""


def end_learning(site: Site, error: str, *, finished: bool = True) -> None:
    """Record the end of a learning run: ``finished`` (it ended by itself, with ``error`` or none) resets the
    count of unfinished runs; a run stopped by a time or memory bound keeps it and leaves its error."""
    runs = SiteLearning.objects.filter(site=site)
    if finished:
        runs.update(last_error=error[:2000], unfinished=0, updated_at=timezone.now())
    else:
        runs.update(last_error=error[:2000], updated_at=timezone.now())


def retry_learning(site: Site) -> Outcome:
    """The administrators' decision after a fix: the site's learning out of quarantine, and asked for again."""
    SiteLearning.objects.filter(site=site).update(
        unfinished=0, quarantined_at=None, last_error="", updated_at=timezone.now()
    )
    return Outcome("retried", "", [("learn", site.pk, 0)])


def _store_once(site: Site, pages: list[tuple[str, bytes]]) -> bool:
    """Learn and store the profile unless another worker did; True when this call stored it."""
    with transaction.atomic():
        # Locks the row (PostgreSQL: a concurrent insert of the same site waits on the unique index,
        # then finds this one); SQLite serialises writing transactions anyway.
        current, _ = SiteProfile.objects.select_for_update().get_or_create(site=site)
        if current.learned_at is not None:
            return False
        learn_site_profile(site, pages)
    return True


def refilter_site(site: Site, profile, batch: int = REFILTER_BATCH) -> tuple[int, int, int]:
    """Re-filter up to ``batch`` processed articles not yet filtered with ``profile`` (by its name and the time
    it was learned: a re-learned profile keeps its name), rebuilding and re-inferring their cases.

    Returns (re-filtered, whose core text changed, still left).
    """
    learned_at = (profile.provenance or {}).get("learned_at")
    # an article whose page the retention policy dropped keeps the extraction it has (monitor/retention.py)
    stale = Article.objects.filter(site=site, state=S.PROCESSED, raw_html__isnull=False).exclude(
        content__extraction__profile=profile.name, content__extraction__profile_learned_at=learned_at
    )
    done = changed = 0
    for pk in stale.order_by("pk").values_list("pk", flat=True)[:batch]:
        result = refilter_article(pk, profile)
        if result is not None:
            done += 1
            changed += result
    return done, changed, stale.count()


def refilter_article(article_id: int, profile) -> bool | None:
    """Filter a processed article again with ``profile`` and ingest its case again.

    True when its core text changed, False when not, None when it is no longer a processed article.
    """
    with transaction.atomic():
        article = (
            Article.objects.select_for_update(of=("self",))
            .select_related("content", "site")  # the site's name: its title
            .filter(pk=article_id, state=S.PROCESSED)
            .first()
        )
        if article is None:
            return None
        content = article.extracted
        before = content.core_text
        previous = content.extraction or {}
        try:
            extraction = extract_article(article, profile)
        except (filters.ExtractionError, ValueError) as exc:
            # It was read before; mark it done with this profile rather than try again forever.
            content.extraction = {**previous, "profile": profile.name, "refilter_error": str(exc)[:500]}
            save_content(content)
            log.warning("article %s: not re-filtered: %s", article_id, exc)
            return False
        if "timings" in previous:
            content.extraction["timings"] = previous["timings"]
        set_docview(article, extraction)
        fields = ["title", "charset"]
        digest = content_hash(extraction.text)
        try:
            with transaction.atomic():
                article.content_hash = digest
                article.save(update_fields=[*fields, "content_hash"])
        except IntegrityError:
            # Without the template text it has the core text of another original. It keeps its own case
            # (experts may have judged it) and its old content hash; it is not turned into a duplicate.
            log.info("article %s: after re-filtering, same core text as another article; kept", article_id)
            article.save(update_fields=fields)
        save_content(content)
        # Its fingerprint's bands follow its new core text (a near-copy of another original is kept too).
        store_bands(article, replace=True)
        ingest_case(article, extraction.tokens)  # the search index followed the content row (search's triggers)
    return content.core_text != before


# --------------------------------------------------------------------------- re-learning (the admin's action)


def learning_pages(site: Site, chosen: str = "") -> tuple[list[tuple[str, bytes]], list[str]]:
    """(url, html) pages to learn from, and the chosen URLs not stored: the chosen article URLs (one per
    line), else the site's latest stored pages. The automatic learning and the admin action share it."""
    urls = [canonicalise(u) or u for u in chosen.split() if u.strip()]
    stored = _read_pages(site)
    if urls:
        found = {a.url: a for a in stored.filter(url__in=urls)}
        return [(u, found[u].get_raw_html()) for u in urls if u in found], [u for u in urls if u not in found]
    latest = stored.order_by("-fetched_at")[:LEARNING_PAGES]
    return [(a.url, a.get_raw_html()) for a in latest], []


def relearn_preview(site: Site, pages: list[tuple[str, bytes]], show_pages: int = 3) -> dict:
    """What a newly learned profile would remove, compared with the current one, on a few of the pages."""
    current = profile_for_site(site)
    learned = filters.learn_profile(pages, base="default")
    examples = []
    for url, body in pages[:show_pages]:
        before = filters.extract(body, url=url, profile=current)
        after = filters.extract(body, url=url, profile=learned)
        kept_before = {p.text for p in before.core_phrases}
        newly_removed = [(p.text, p.removed_by) for p in after.phrases if p.removed_by and p.text in kept_before]
        examples.append(
            {
                "url": url,
                "removed": newly_removed,
                "core_before": len(before.core_phrases),
                "core_after": len(after.core_phrases),
            }
        )
    return {
        "profile": learned,
        "filtering_phrases": learned.filtering_phrases[:200],
        "filtering_words": sorted(learned.filtering_words.items())[:200],
        "style_tree": sst.stats(learned.style_tree),
        "min_length": learned.min_length,
        "current_min_length": current.min_length,
        "examples": examples,
    }


def relearn_site(site: Site, pages: list[tuple[str, bytes]]) -> Outcome:
    """The administrator's decision: learn the site's profile anew from ``pages`` and store it.

    The outcome asks for the learn task, which re-filters the site's processed articles with the new profile
    in batches: their cases are rebuilt and re-inferred (classifier.services.ingest_case). A cornerstone case
    keeps the keywords its rules were validated on, and records that its article's text has changed since.
    """
    stored = learn_site_profile(site, pages)
    return Outcome("relearned", f"learned from {len(stored.learned_from)} pages", [("learn", site.pk, 0)])
