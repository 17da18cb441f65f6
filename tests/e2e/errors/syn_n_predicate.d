/* -n program: see syn_n_predicate.args */
