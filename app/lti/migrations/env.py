"""Alembic's environment for the LTI tool's database (app/lti/db.py).

`db.upgrade()` hands over an open connection in `config.attributes["connection"]`, inside
the lock that keeps two processes from migrating at once; there is no alembic.ini.
"""

from __future__ import annotations

from alembic import context

from backprop_animator.app.lti.db import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
