"""One router per resource: traces, examples and rules, pages, health, API docs."""
