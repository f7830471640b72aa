"""Fixtures for the feeds tests.

Feeds are filled through the knowledge-base services (accept, commit_rule, undo_last_rule), so these tests
start each one without a loaded rule tree, like the classifier's: the fixture is shared, not copied.
"""

from tests.classifier.conftest import _fresh_kb_cache  # noqa: F401  (autouse)
