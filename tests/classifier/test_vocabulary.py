"""One word per state: the admin's labels (the models' choices) say what the workspace's pages say."""

from classifier.models import Classification, ReviewState
from classifier.vocabulary import ARTICLE_STATES, FOLDER_STATES


def test_the_models_labels_are_the_pages_words():
    # the admin's filters said "Suggestions pending" and "Classified" where the pages say suggested and reviewed
    for state in ReviewState:
        assert state.label.lower() == ARTICLE_STATES[state].word, state
    for state in Classification.State:
        assert state.label.lower() == FOLDER_STATES[state].word, state
