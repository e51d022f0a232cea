"""The computer: players and their searches, the compiled search, the solved small boards, the
endgame tables and two-player matches.  It imports the rules core and nothing above it."""
