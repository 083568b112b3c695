"""Recording a run and writing its trace: the recorder, narration, number format,
underflow marks and the trace format (docs/TRACE.md)."""
