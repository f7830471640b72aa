"""The REST API: articles, suggestions, folders, feeds, saved searches and sites, with its tokens page."""
