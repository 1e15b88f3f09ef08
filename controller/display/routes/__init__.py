"""One router per resource: the table, the recall, acts, the event stream and the page."""
