"""Processing: the step from a fetched page to a classified case.

WebMon (``monitor``) stores the raw page and enqueues ``process``; this app decodes it, runs the noise
filters with the site's profile (``filters.extract``), stores the extraction on the article, detects
re-publications, ingests the case into the knowledge base (``classifier.services.ingest_case``, which runs
inference) and learns a new site's filter profile. It sits between the stages: it may import ``monitor``,
``filters`` and ``classifier``; none of them imports it.
"""
