"""The mitmproxy adapter: the addon, its entry file for mitmdump, and the worker pool."""
