/* -n program: see syn_n_plain.args */
