/* -n program: see syn_n_plain_cook.args */
