"""Rule helpers: plain functions over immutable state, each citing its Comprehensive Rule."""
