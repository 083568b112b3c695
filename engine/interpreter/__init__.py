"""The one interpreter: real programs (SPEC §11: functions, loops, classes, several
passes) and, in its straight-line mode (`straight_line`), the programs of SPEC §2, where a
number assigned to a name is a leaf.

A parsed program is compiled into closures (`compiler`, `expressions`, `patterns`,
`scope`) and run over the program's own objects (`objects`, `machine`, `library`,
`stdlib`, `text`, `exceptions`) within its budgets (`runtime`), telling a recorder
(`engine.trace.recorder.Recorder`) what happens. `engine.run.trace_program` puts them together;
nothing in this package imports the recorder, which imports the package's objects.
"""
