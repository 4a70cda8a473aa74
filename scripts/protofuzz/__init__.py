"""The protocol fuzzer behind scripts/protocol_fuzz.py (the entry point: its docstring tells
what the fuzz does and what counts as a failure).

  text            the engine's text rules: white space, trimming, integers, the line cut
  uci_parser      mirror of the engine's UCI parser
  xboard_parser   mirror of the engine's XBoard parser
  pychess         python-chess if it is there (else None: moves checked for format only)
  positions       FENs, never-legal moves, the engine's rules on top of python-chess
  fixtures        the books, nets, tables and log paths the options point to
  engine          the engine process: non-blocking writes, threaded reads
  driver          what both protocols share: sending, reading, probes, failures, summary
  options         option values, good and bad
  mutations       random bytes and mutated lines
  uci_driver      UCI: the model of the engine's answers and the bestmove checks
  uci_lines       UCI: the line generator
  xboard_state    XBoard: what the engine's front-end is believed to hold
  xboard_driver   XBoard: the model applied to each line, probes, settling, resyncs
  xboard_lines    XBoard: the line generator
"""
