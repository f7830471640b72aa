"""Knowledge-base use cases: one function per use case, each in one transaction, each change audited.

Views, tasks and commands call these functions (``from classifier import services``, then
``services.commit_rule(...)``); the MCRDR logic itself lives in the pure engine (classifier/engine.py,
acquisition.py) and the loaded rule tree comes from classifier/kb.py. One module per subject:

* :mod:`~classifier.services.cases`: an article's case and its keyword index (ingestion), inference and its
  explanation, re-inference of every case, the knowledge base's feature settings;
* :mod:`~classifier.services.validation`: drafting a rule (the cornerstone cases it would change, the
  difference lists, the stored cases it would reclassify);
* :mod:`~classifier.services.rules`: committing and undoing rules;
* :mod:`~classifier.services.review`: accepting and rejecting folders, the inbox's bulk actions (accept, no
  folder, assign) and read marks;
* :mod:`~classifier.services.corrections`: the pending corrections a rejection opens (withdrawn, resolved by a
  rule, reopened by an undo);
* :mod:`~classifier.services.folders`: creating, renaming, moving, merging and deleting folders, their privacy;
* :mod:`~classifier.services.classifications`: how conclusions become classification rows (the classification
  policy: suggestions belong to the knowledge base, accepted and rejected rows to the experts) and the articles'
  review states;
* :mod:`~classifier.services.shared`: the small helpers they share (ids, the acting user, the audit entry).

The knowledge base's export and import are :mod:`classifier.exchange`.
"""

from classifier.acquisition import PRECISION_WORDS, SEARCH_WORDS
from classifier.services.cases import (
    Explained,
    case_keywords,
    case_titles,
    clean_keywords,
    explain,
    infer,
    ingest_case,
    reinfer_all,
    set_feature_settings,
)
from classifier.services.classifications import SyncResult, refresh_review_states
from classifier.services.corrections import withdraw_correction
from classifier.services.folders import (
    FolderDependents,
    create_folder,
    discard_folder,
    folder_dependents,
    merge_folder,
    move_folder,
    rename_folder,
    set_folder_public,
)
from classifier.services.review import (
    BULK_MAX,
    NOT_PROCESSED,
    BulkItem,
    BulkRefused,
    accept,
    bulk_accept,
    bulk_assign,
    bulk_mark_no_folder,
    mark_opened,
    mark_read,
    mark_unread,
    reject,
)
from classifier.services.rules import UndoPreview, commit_rule, undo_last_rule, undo_preview, undo_refusal
from classifier.services.shared import CHUNK
from classifier.services.validation import (
    AffectedCase,
    CornerstoneChange,
    RuleRequest,
    Validation,
    affected_cases,
    move_article,
    validate_rule,
)

__all__ = [
    # cases: ingestion, inference, re-inference, feature settings
    "CHUNK",
    "Explained",
    "case_keywords",
    "case_titles",
    "clean_keywords",
    "explain",
    "infer",
    "ingest_case",
    "reinfer_all",
    "set_feature_settings",
    # classifications and review states
    "SyncResult",
    "refresh_review_states",
    # drafting a rule
    "PRECISION_WORDS",
    "SEARCH_WORDS",
    "AffectedCase",
    "CornerstoneChange",
    "RuleRequest",
    "Validation",
    "affected_cases",
    "move_article",
    "validate_rule",
    # committing and undoing rules
    "commit_rule",
    "undo_last_rule",
    "UndoPreview",
    "undo_preview",
    "undo_refusal",
    # review, bulk actions, read marks
    "BULK_MAX",
    "NOT_PROCESSED",
    "BulkItem",
    "BulkRefused",
    "accept",
    "bulk_accept",
    "bulk_assign",
    "bulk_mark_no_folder",
    "mark_opened",
    "mark_read",
    "mark_unread",
    "reject",
    # corrections
    "withdraw_correction",
    # folders
    "FolderDependents",
    "create_folder",
    "discard_folder",
    "folder_dependents",
    "merge_folder",
    "move_folder",
    "rename_folder",
    "set_folder_public",
]
