/* -n program: see syn_n_near.args */
