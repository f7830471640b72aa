"""{% folder_feed_url folder 'rss' [subfolders] %}: a folder's canonical feed URL (id + current slug)."""

from django import template

from feeds.syndication import folder_feed_url as _folder_feed_url

register = template.Library()


@register.simple_tag
def folder_feed_url(folder, fmt="rss", subfolders=False):
    return _folder_feed_url(folder, fmt, subfolders=bool(subfolders))
