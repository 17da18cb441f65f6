# aggpack without -x encoding asks the terminal: TERM=dumb (or sun) gets
# ASCII, any other terminal UTF-8 blocks.
TERM=dumb "$1" -s aggpack_term.d
TERM=xterm "$1" -s aggpack_term.d
