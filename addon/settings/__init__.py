"""The settings site the proxy serves, who may use it, and the site rules file."""
