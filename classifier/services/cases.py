"""Cases: an article's case and its keyword index, inference on it, and re-inference of every case.

This module owns ingestion (:func:`ingest_case`: processing calls it for every article it reads), how a case's
keywords are built from an article (:func:`case_keywords`, after the knowledge base's feature settings, which
:func:`set_feature_settings` changes), the knowledge base's conclusions for a case and why
(:func:`infer`, :func:`explain`), how the workspace names cases (:func:`case_titles`) and
re-inferring every stored case (:func:`reinfer_all`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from classifier import kb
from classifier.engine import Conclusion
from classifier.features import FeatureSettings, case_features, kind_of
from classifier.models import Case, CaseKeyword, Folder, KeywordFrequency, KnowledgeBase, ReviewState, Rule
from classifier.services.classifications import SyncResult, refresh_review_states, sync_classifications
from classifier.services.corrections import resolve_corrections
from classifier.services.shared import CHUNK, audit, chunks, folder_map, valid_keyword_set
from filters.stopwords import get_stop_words

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- ingestion
def clean_keywords(tokens: Iterable[str]) -> list[str]:
    """A case's keywords from filter tokens: engine.keyword_set of them, sorted, blank tokens dropped.

    Tokens longer than the index column (CaseKeyword.MAX_LENGTH, e.g. a stray URL) are left out: a keyword
    that cannot be indexed could never be found by re-inference, so it must not be a rule condition either.
    """
    if isinstance(tokens, str):
        raise ValidationError("tokens must be a list of keywords, not a single string")
    indexable = (t for t in tokens if not isinstance(t, str) or 0 < len(t.strip()) <= CaseKeyword.MAX_LENGTH)
    return sorted(valid_keyword_set(indexable, "tokens"))


def case_keywords(article, tokens: Sequence[str], settings: FeatureSettings) -> list[str]:
    """The keywords of an article's case: its tokens, and the phrases and title/site/URL words the knowledge
    base's feature settings ask for (classifier.features)."""
    url = getattr(article, "canonical_url", "") or getattr(article, "url", "") or ""
    title = getattr(article, "title", "") or ""
    # the headline's words are title words too when the page's <title> was kept as the article's title
    extraction = getattr(getattr(article, "extracted", None), "extraction", None)
    headline = extraction.get("headline", "") if isinstance(extraction, dict) else ""
    if headline and headline != title:
        title = f"{title} {headline}"
    return clean_keywords(
        case_features(tokens, title=title, url=url, settings=settings, stop_words=get_stop_words("en"))
    )


def _is_cornerstone(case_id: int) -> bool:
    return Case.objects.filter(kb.cornerstone_q(), pk=case_id).exists()


@functools.cache
def _case_insert(vendor: str) -> tuple[str, list]:
    """The statement of :func:`_insert_case` on this database, and the case's fields in parameter order (built
    once per process).

    The case's INSERT also reads the knowledge base's stamp under its share lock (what :func:`kb.shared` reads)
    and, on PostgreSQL, inserts the keyword index rows: one statement where there were three. Data-modifying
    WITH queries run once and to completion whether the main query reads them or not (PostgreSQL); SQLite has
    no such WITH but may read the knowledge base row in RETURNING, under the IMMEDIATE transaction's write lock.
    """
    concrete = {f.name: f for f in Case._meta.concrete_fields}
    fields = [concrete[name] for name in ("article", "keywords", "source", "created_at")]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    insert = (
        f"INSERT INTO {quote(Case._meta.db_table)} ({columns}) VALUES (%s, %s, %s, %s) "  # noqa: S608 - no user input
        f"ON CONFLICT ({quote(fields[0].column)}) DO NOTHING RETURNING {quote(Case._meta.pk.column)}"
    )
    knowledge = quote(KnowledgeBase._meta.db_table)
    if vendor != "postgresql":
        read = f"(SELECT {{}} FROM {knowledge} WHERE id = {KnowledgeBase.SINGLETON_ID})"  # noqa: S608 - no user input
        return f"{insert}, {read.format('stamp')}, {read.format('version')}", fields
    index = quote(CaseKeyword._meta.db_table)
    index_columns = f"{quote(CaseKeyword._meta.get_field('case').column)}, {quote('keyword')}"
    sql = (
        f"WITH kb AS (SELECT stamp, version FROM {knowledge} WHERE id = {KnowledgeBase.SINGLETON_ID} FOR SHARE), "  # noqa: S608
        f"c AS ({insert}), "
        f"k AS (INSERT INTO {index} ({index_columns}) SELECT c.id, unnest(%s::varchar[]) FROM c) "
        "SELECT (SELECT id FROM c), (SELECT stamp FROM kb), (SELECT version FROM kb)"
    )
    return sql, fields


def _insert_case(article, words: list[str]) -> tuple[int | None, tuple[str, int] | None]:
    """Insert the article's case with its keyword index, and read the knowledge base's stamp under its share lock.

    Returns the new case's id (None when the article has one already) and the knowledge base's (stamp, version),
    or None where the statement could not read them (SQLite when the case existed; a knowledge base row flushed
    by a transactional test): the caller then takes the lock with :func:`kb.shared`. One statement whatever
    happens (INSERT ... ON CONFLICT DO NOTHING RETURNING, PostgreSQL and SQLite 3.35+), two on SQLite for a new
    case with keywords: a concurrent ingestion of the same article needs no savepoint to recover from.
    """
    sql, fields = _case_insert(connection.vendor)
    values = {"article": article.pk, "keywords": words, "source": (getattr(article, "url", "") or "")[:2000]}
    values["created_at"] = timezone.now()
    params = [field.get_db_prep_save(values[field.name], connection) for field in fields]
    if connection.vendor == "postgresql":
        params.append(words)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    case_id, stamp, version = row if row else (None, None, None)
    if case_id is not None and connection.vendor != "postgresql":
        _index_keywords(case_id, words)
    return case_id, (str(stamp), int(version)) if stamp is not None and version is not None else None


def _index_keywords(case_id: int, words: list[str]) -> None:
    """Add the keyword index rows of a case (one statement, no model instance per keyword)."""
    if not words:
        return
    quote = connection.ops.quote_name
    table = quote(CaseKeyword._meta.db_table)
    columns = f"{quote(CaseKeyword._meta.get_field('case').column)}, {quote('keyword')}"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            sql = f"INSERT INTO {table} ({columns}) SELECT %s, unnest(%s::varchar[])"  # noqa: S608 - no user input
            cursor.execute(sql, [case_id, words])
        else:
            sql = f"INSERT INTO {table} ({columns}) VALUES (%s, %s)"  # noqa: S608 - no user input
            cursor.executemany(sql, [(case_id, word) for word in words])


@transaction.atomic(savepoint=False)
def ingest_case(article, tokens: Iterable[str], *, caller_saves_review_state: bool = False) -> Case:
    """Store (or update) the article's case and keyword index, run inference, store the suggestions.

    Idempotent: calling it again with the same tokens changes nothing. A cornerstone case keeps its
    keywords (rules were validated against them); new tokens for its article are ignored with a warning,
    and the case records when its article's text first changed (``Case.text_changed_at``, cleared when the
    article gives those keywords again), which the workspace shows beside it.
    Inside a caller's transaction it takes no savepoint of its own (processing calls it once per article:
    a new case costs four statements and the suggestions two more).
    ``caller_saves_review_state``: for a new case, the article's review state is set on ``article`` (not
    saved): the caller saves it with the article's row in the same transaction (processing's final row:
    one statement less). A stored case's review state is always written here.
    """
    if isinstance(tokens, str):  # case_keywords checks each token (clean_keywords); a string is not a list
        raise ValidationError("tokens must be a list of keywords, not a single string")
    tokens = list(tokens)
    # The keywords are built with the features of the snapshot this process holds, read again under the lock
    # by the case's own INSERT; when the knowledge base changed its features meanwhile (rare), the new case's
    # keywords are built again and replaced.
    held = kb.cached()
    features = held.features if held is not None else FeatureSettings()
    words = case_keywords(article, tokens, features)
    case_id, read = _insert_case(article, words)
    snapshot = kb.at(*read) if read is not None else kb.shared()
    if snapshot.features != features:
        rebuilt = case_keywords(article, tokens, snapshot.features)
        if case_id is not None and rebuilt != words:
            _replace_keywords(Case(pk=case_id, article=article, keywords=words), rebuilt)
        words = rebuilt
    if case_id is not None:  # a new case: nothing suggested yet
        new = {case_id: folder_map(snapshot.tree, frozenset(words))}
        sync_classifications(new, new_cases=True, refresh=not caller_saves_review_state)
        if caller_saves_review_state:
            article.review_state = ReviewState.SUGGESTED if new[case_id] else ReviewState.UNREVIEWED
        return Case(pk=case_id, article=article, keywords=words, source=(getattr(article, "url", "") or "")[:2000])
    case = Case.objects.get(article=article)
    if case.keywords == words and case.text_changed_at is not None:
        case.text_changed_at = None  # the article gives the validated keywords again
        case.save(update_fields=["text_changed_at"])
    if case.keywords != words:
        if _is_cornerstone(case.pk):
            log.warning("case %s is a cornerstone case; its keywords are kept although the article changed", case.pk)
            if case.text_changed_at is None:
                case.text_changed_at = timezone.now()
                case.save(update_fields=["text_changed_at"])
        else:
            _replace_keywords(case, words)
    sync_classifications({case.pk: folder_map(snapshot.tree, frozenset(case.keywords))})
    return case


def _replace_keywords(case: Case, words: list[str]) -> None:
    """Store a case's new keywords and bring its keyword index in line (no re-inference)."""
    old = set(case.keywords)
    removed, added = old - set(words), [w for w in words if w not in old]
    if connection.vendor == "postgresql" and removed and added:
        # The index's triggers lock each word's count as the deletion, then the insertion, reach it: two cases
        # trading the same words in opposite directions would each hold one and wait for the other. All of
        # them first, in keyword order, in one statement (SQLite serializes writers).
        counts = KeywordFrequency.objects.select_for_update().filter(keyword__in=sorted(removed | set(added)))
        list(counts.order_by("keyword").values_list("keyword", flat=True))
    case.keywords = words
    case.save(update_fields=["keywords"])
    CaseKeyword.objects.filter(case=case, keyword__in=list(removed)).delete()
    _index_keywords(case.pk, added)


# --------------------------------------------------------------------------- inference
def infer(case: Case) -> list[Conclusion]:
    """The conclusions the current knowledge base gives the case (folder ids with rule-id paths)."""
    return kb.current().tree.infer(case.keyword_set)


@dataclass(frozen=True)
class Explained:
    """One conclusion for "why is this here": the folder and the rules of its path, root side first.

    ``stopped`` is True for a path that ended in a stopping rule (the folder was withheld).
    """

    folder: Folder
    rules: list[Rule]
    stopped: bool = False


def explain(case: Case, include_stopped: bool = False, snapshot: kb.Snapshot | None = None) -> list[Explained]:
    """The case's conclusions with their rule paths as Rule model instances (optionally stopped paths), on
    ``snapshot`` (a page that read the knowledge base already) or the knowledge base as committed now. One per
    folder (and per given or withheld): two rules giving the same folder are one suggestion, whose rules are
    those of both paths, each once (a live trial saw Health/Diabetes suggested as 1 and 2, twice in the API)."""
    explanation = (snapshot or kb.current()).tree.explain(case.keyword_set)
    paths = [(c.folder, c.path, False) for c in explanation.conclusions]
    if include_stopped:
        paths += [(s.folder, s.path, True) for s in explanation.stopped]
    rule_ids = {rid for _, path, _ in paths for rid in path}
    rules = Rule.objects.select_related("folder").in_bulk(rule_ids)
    # a path's folder is one of its rules' (a stopping rule withholds its parent's): read apart only if not
    folders = {r.folder.pk: r.folder for r in rules.values() if r.folder is not None}
    missing = {folder for folder, _, _ in paths} - folders.keys()
    if missing:
        folders.update(Folder.objects.in_bulk(missing))
    merged: dict[tuple[int, bool], dict[int, None]] = {}
    for folder, path, stopped in paths:
        merged.setdefault((folder, stopped), {}).update(dict.fromkeys(path))
    return [Explained(folders[f], [rules[r] for r in path], stopped) for (f, stopped), path in merged.items()]


def case_titles(case_ids: Iterable[int]) -> dict[int, str]:
    """case id -> how the workspace names the case: its article's title (else its URL), or for an imported case
    without an article its source; one query. Experts know articles by title, not by case number."""
    rows = Case.objects.filter(pk__in=list(case_ids)).values_list("id", "article__title", "article__url", "source")
    return {pk: title or url or source or f"case {pk}" for pk, title, url, source in rows}


# --------------------------------------------------------------------------- re-inference and feature settings
@transaction.atomic
def reinfer_all(user=None) -> SyncResult:
    """Re-infer every stored case (after an import, or edits made outside the services); audited."""
    snapshot = kb.locked()
    result = SyncResult()
    ids = list(Case.objects.order_by("id").values_list("id", flat=True))
    for chunk in chunks(ids):
        desired = {
            pk: folder_map(snapshot.tree, frozenset(words))
            for pk, words in Case.objects.filter(id__in=chunk).values_list("id", "keywords")
        }
        part = sync_classifications(desired)
        resolve_corrections(snapshot.tree, chunk, user, timezone.now())
        refresh_review_states(chunk)  # also repairs states after edits made outside the services
        result.cases += part.cases
        result.created += part.created
        result.repointed += part.repointed
        result.removed += part.removed
        result.conflicts += part.conflicts
    audit(user, "kb.reinfer", version=snapshot.version, reclassified=result.as_details())
    return result


def set_feature_settings(settings: FeatureSettings, user=None) -> int:
    """Change how the knowledge base builds its cases (stemming, phrases, scopes) and rebuild them; audited.

    Every case that is not a cornerstone case gets its keywords again from its article's tokens, title and
    URL, and is re-inferred. Refused with the reason when rules would stop meaning what they meant: a change
    of stemming while rules exist (their words were typed for the old stems), or switching off phrases or
    scopes that a rule's conditions use. Returns the number of cases rebuilt.
    """
    with transaction.atomic():
        snapshot = kb.locked()
        old = snapshot.features
        if settings == old:
            return 0
        rules = list(snapshot.tree)
        if settings.stemming != old.stemming and rules:
            raise ValidationError(
                f"the knowledge base has {len(rules)} rules whose words were chosen "
                f"{'with ' + old.stemming + ' stemming' if old.stemming else 'without stemming'}; "
                "change stemming before the first rule, or export, change and import the knowledge base"
            )
        used = {kind_of(w) for rule in rules for w in rule.conditions | rule.absent}
        if not settings.phrases and "phrase" in used:
            raise ValidationError("rules use phrase conditions: phrases cannot be switched off")
        if not settings.scopes and used & {"title", "site", "url"}:
            raise ValidationError("rules use title, site or URL conditions: scopes cannot be switched off")
        row = KnowledgeBase.objects.select_for_update().get(pk=KnowledgeBase.SINGLETON_ID)
        row.features = settings.to_dict()
        row.save(update_fields=["features"])
        new = kb.publish(kb.load("", snapshot.version))
        stones = set(new.cornerstones)
        rebuilt = 0
        cases = Case.objects.exclude(id__in=stones).select_related("article", "article__content").order_by("id")
        for case in cases.iterator(chunk_size=CHUNK):
            article = case.article
            if article is None:
                continue
            words = case_keywords(article, list(article.extracted.tokens or []), settings)
            if words != case.keywords:
                _replace_keywords(case, words)
                rebuilt += 1
        audit(user, "kb.features", before=old.to_dict(), after=settings.to_dict(), rebuilt=rebuilt)
        reinfer_all(user)
    return rebuilt
