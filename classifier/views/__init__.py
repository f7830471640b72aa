"""The experts' workspace views (thin: check permissions, parse input, call selectors/services, render).

Every view is wrapped by classifier.permissions.expert_required (anonymous: login page; signed in
without the experts role: 403). Every state change is a POST with Django's CSRF check; the small
JavaScript endpoints read the token from the form they post.

One module per concern (classifier/urls.py names the views through this package):

* :mod:`~classifier.views.articles`: the inbox, the article page and its filter view;
* :mod:`~classifier.views.decisions`: accept, reject and the pending corrections, move or copy, bulk actions;
* :mod:`~classifier.views.rules`: the rule-building page, its commit, a rule's page and undo;
* :mod:`~classifier.views.folders`: the folder tree, a folder's page and its management;
* :mod:`~classifier.views.shared`: what they share (safe redirects, the inbox view an article was opened in).
"""

from classifier.views.articles import article_detail, article_filters, inbox
from classifier.views.decisions import accept, bulk, correction_withdraw, corrections, move, reject
from classifier.views.folders import (
    folder_create,
    folder_delete,
    folder_detail,
    folder_merge,
    folder_move,
    folder_rename,
    folders,
)
from classifier.views.rules import rule, rule_check, rule_commit, rule_detail, rule_undo

__all__ = [
    "accept",
    "article_detail",
    "article_filters",
    "bulk",
    "correction_withdraw",
    "corrections",
    "folder_create",
    "folder_delete",
    "folder_detail",
    "folder_merge",
    "folder_move",
    "folder_rename",
    "folders",
    "inbox",
    "move",
    "reject",
    "rule",
    "rule_check",
    "rule_commit",
    "rule_detail",
    "rule_undo",
]
