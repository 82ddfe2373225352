#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands that serve no admin page start without importing the admin modules
# (config/admin_site.py): an MCP client over stdio starts one `mcp_serve` per session.
WITHOUT_ADMIN = {"mcp_serve"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:2] and sys.argv[1] in WITHOUT_ADMIN:
        os.environ.setdefault("DJANGO_ADMIN_AUTODISCOVER", "false")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
