"""The knowledge base as the engine sees it: a RuleTree (plus the cornerstone cases) loaded from the database.

Each process keeps one loaded :class:`Snapshot` and reuses it while the `KnowledgeBase` row's stamp is
unchanged, so that inference costs one tiny query instead of reloading thousands of rules. Every
knowledge-base change goes through :func:`locked` inside a transaction: it takes the row lock
(serialising concurrent commits across processes), and the caller then :func:`publish`-es the new
snapshot, which is only installed in the cache once the transaction has committed. Snapshots are never
mutated after they are built (copy-on-write), so threads that are inferring with an older snapshot are
never disturbed.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from classifier.engine import Rule as EngineRule
from classifier.engine import RuleTree
from classifier.features import FeatureSettings
from classifier.index import KeywordIndex
from classifier.models import Case, KnowledgeBase, Rule, RuleCornerstone


@dataclass(frozen=True)
class Snapshot:
    """One version of the knowledge base, read-only once built."""

    stamp: str
    version: int
    tree: RuleTree
    # cornerstone case id -> keywords, with an index over them for validation of new rules
    cornerstones: dict[int, frozenset[str]] = field(default_factory=dict)
    # keyword index over the cornerstones, built on first use: commits need not pay for it, validation does
    _index: list = field(default_factory=list, repr=False, compare=False)
    # cornerstone case id -> Explanation under this tree, filled on first use (validation reuses it)
    _explained: dict = field(default_factory=dict, repr=False, compare=False)
    # cornerstone case id -> its Case row (id, article, source), loaded once on first use
    _rows: list = field(default_factory=list, repr=False, compare=False)
    #: how this knowledge base builds its cases (stemming, phrases, scopes)
    features: FeatureSettings = field(default_factory=FeatureSettings)

    @property
    def cornerstone_index(self) -> KeywordIndex:
        if not self._index:
            with _cache_lock:
                if not self._index:
                    self._index.append(KeywordIndex(self.cornerstones.items()))
                    _freeze_long_lived()
        return self._index[0]

    def cornerstone_rows(self, ids: Iterable[int]) -> dict[int, Case]:
        """The Case rows of these cornerstone cases (only id, article and source loaded; keywords are in
        ``cornerstones``). All cornerstones are read in one query on first use and kept with the snapshot,
        so the widest validation (every cornerstone case may change) reads no case rows. The rows are
        shared: read them, never change them."""
        if not self._rows:
            with _cache_lock:
                if not self._rows:
                    self._rows.append(Case.objects.only("id", "article_id", "source").in_bulk(list(self.cornerstones)))
                    _freeze_long_lived()
        rows = self._rows[0]
        ids = list(ids)
        missing = [i for i in ids if i not in rows]
        found = Case.objects.only("id", "article_id", "source").in_bulk(missing) if missing else {}
        return {i: rows.get(i) or found[i] for i in ids}

    def explanation(self, case_id: int):
        """The cached inference result for a cornerstone case (computed once per snapshot)."""
        found = self._explained.get(case_id)
        if found is None:
            found = self._explained[case_id] = self.tree.explain(self.cornerstones[case_id])
        return found

    def derive(
        self,
        add: Iterable[EngineRule] = (),
        remove: Iterable[int] = (),
        cornerstones: dict[int, frozenset[str]] | None = None,
    ) -> Snapshot:
        """A new snapshot (stamp unset) with rules added/removed; this one is left untouched."""
        removed = set(remove)
        rules = [rule for rule in self.tree if rule.id not in removed]
        rules.extend(add)
        tree = RuleTree(rules)
        stones = dict(self.cornerstones if cornerstones is None else cornerstones)
        return Snapshot("", self.version, tree, stones, features=self.features)


_cache: Snapshot | None = None
_cache_lock = threading.Lock()


def _freeze_long_lived() -> None:
    """Move the objects alive now (a freshly loaded snapshot: rule tree, cornerstone keywords, index) out
    of the cyclic garbage collector's sight (gc.freeze). A full collection otherwise walks these few
    hundred thousand long-lived objects, adding 100 ms and more to whichever request triggers it
    (docs/benchmarks/workspace.md). Snapshots hold no reference cycles, so a replaced one is still
    freed by reference counting; frozen cyclic garbage of the moment stays until exit (a few objects
    per knowledge-base version)."""
    gc.freeze()


def cornerstone_q() -> Q:
    """The cases that are cornerstone cases: a rule was made for them (Rule.cornerstone) or an expert accepted
    their change when committing a rule (RuleCornerstone)."""
    return Q(pk__in=Rule.objects.filter(cornerstone__isnull=False).values("cornerstone_id")) | Q(
        pk__in=RuleCornerstone.objects.values("case_id")
    )


def engine_rule(row: Rule) -> EngineRule:
    return EngineRule(row.id, row.parent_id, row.folder_id, frozenset(row.conditions), frozenset(row.absent))


def load(stamp: str, version: int) -> Snapshot:
    """Build a snapshot from the rule and cornerstone rows (in the caller's transaction)."""
    rules = [
        EngineRule(pk, parent, folder, frozenset(cond), frozenset(absent))
        for pk, parent, folder, cond, absent in Rule.objects.order_by("id").values_list(
            "id", "parent_id", "folder_id", "conditions", "absent"
        )
    ]
    stones = {
        pk: frozenset(words)
        for pk, words in Case.objects.filter(cornerstone_q()).distinct().values_list("id", "keywords")
    }
    settings = KnowledgeBase.objects.filter(pk=KnowledgeBase.SINGLETON_ID).values_list("features", flat=True).first()
    return Snapshot(stamp, version, RuleTree(rules), stones, features=FeatureSettings.from_dict(settings or {}))


def _row(lock: bool) -> KnowledgeBase:
    qs = KnowledgeBase.objects.select_for_update() if lock else KnowledgeBase.objects
    try:
        return qs.get(pk=KnowledgeBase.SINGLETON_ID)
    except KnowledgeBase.DoesNotExist:
        # flushed by a transactional test, or a database set up without migrations' data
        KnowledgeBase.objects.get_or_create(pk=KnowledgeBase.SINGLETON_ID)
        return qs.get(pk=KnowledgeBase.SINGLETON_ID)


def _cached_or_load(stamp: str, version: int) -> Snapshot:
    global _cache
    snapshot = _cache
    if snapshot is not None and snapshot.stamp == stamp:
        return snapshot
    snapshot = load(stamp, version)
    with _cache_lock:
        _cache = snapshot
    _freeze_long_lived()
    return snapshot


def cached() -> Snapshot | None:
    """The snapshot this process loaded last, without a query; it may be stale (check its stamp before use)."""
    return _cache


def at(stamp: str, version: int) -> Snapshot:
    """The snapshot of this stamp (read under the share lock by the caller's statement): the cached one when
    current, else loaded in the caller's transaction."""
    return _cached_or_load(stamp, version)


def current() -> Snapshot:
    """The knowledge base as committed now (one query when the cached snapshot is current)."""
    # the row alone is one consistent read: no transaction (and, inside one, no savepoint) around a cache hit
    row = _row(lock=False)
    snapshot = _cache
    if snapshot is not None and snapshot.stamp == row.stamp:
        return snapshot
    with transaction.atomic():  # a load reads the rules and the cornerstone cases as of one moment
        row = _row(lock=False)
        return _cached_or_load(row.stamp, row.version)


def locked() -> Snapshot:
    """Lock the knowledge base for a change and return its current snapshot.

    Must run inside ``transaction.atomic()``; the lock holds until that transaction ends. On SQLite
    (no row locks) the settings' IMMEDIATE transactions serialise writers instead.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("kb.locked() must be called inside transaction.atomic()")
    row = _row(lock=True)
    return _cached_or_load(row.stamp, row.version)


def shared() -> Snapshot:
    """Take a shared lock (PostgreSQL FOR SHARE) and return the snapshot.

    Used by case ingestion: many ingestions may run at once, but none overlaps a rule commit, so a
    commit's re-inference never misses a case that is being stored with the previous rules.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("kb.shared() must be called inside transaction.atomic()")
    if connection.vendor == "postgresql":
        # One statement: the share lock and the stamp to check the cached snapshot against.
        table = connection.ops.quote_name(KnowledgeBase._meta.db_table)
        sql = f"SELECT stamp, version FROM {table} WHERE id = %s FOR SHARE"  # noqa: S608 - no user input
        with connection.cursor() as cursor:
            cursor.execute(sql, [KnowledgeBase.SINGLETON_ID])
            found = cursor.fetchone()
            if found is None:  # flushed by a transactional test: create the row, then lock it
                _row(lock=False)
                cursor.execute(sql, [KnowledgeBase.SINGLETON_ID])
                found = cursor.fetchone()
        return _cached_or_load(found[0], found[1])
    row = _row(lock=False)
    return _cached_or_load(row.stamp, row.version)


def publish(snapshot: Snapshot) -> Snapshot:
    """Bump the version row to a new stamp and install ``snapshot`` in the cache after commit.

    Call with the lock held (after :func:`locked`), in the same transaction as the change.
    """
    stamp = KnowledgeBase.new_stamp()
    row = _row(lock=True)
    row.version += 1
    row.stamp = stamp
    row.updated_at = timezone.now()
    row.save(update_fields=["version", "stamp", "updated_at"])
    new = Snapshot(
        stamp,
        row.version,
        snapshot.tree,
        snapshot.cornerstones,
        snapshot._index,
        snapshot._explained,
        snapshot._rows,
        features=snapshot.features,
    )

    def install() -> None:
        global _cache
        with _cache_lock:
            _cache = new

    transaction.on_commit(install)
    return new


def version() -> int:
    return _row(lock=False).version


def clear_cache() -> None:
    """Forget the loaded snapshot (tests, or after editing rules by hand in the database)."""
    global _cache
    with _cache_lock:
        _cache = None
