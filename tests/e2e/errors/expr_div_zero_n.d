/* -n program: see expr_div_zero_n.args */
