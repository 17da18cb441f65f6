/* -n program: see lex_int_digit_n.args */
