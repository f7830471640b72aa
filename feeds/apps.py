from django.apps import AppConfig


class FeedsConfig(AppConfig):
    """Distribution: RSS and Atom feeds of the accepted classifications per folder, and subscribers' tokens.

    Feeds read what the experts decided in the classifier app and never run inference; the classifier
    does not import this app (its templates only load the ``feed_tags`` library).
    """

    name = "feeds"
    label = "feeds"
    verbose_name = "Feeds"
